"""LFM3-VL (``lfm3_vl``): served by vLLM's Transformers backend; a merge-block projector to the text width.

vLLM 0.32 has no LFM3-VL class (its ``Lfm2VLForConditionalGeneration`` reads
LFM2-VL's SigLIP2 NaFlex tower, not this one); the Transformers backend
(``vllm/model_executor/models/transformers/multimodal.py``) ships the
``pooler_output`` of ``Lfm3VlModel.get_image_features`` (``get_video_features``
calls it with the video's grid): ``Lfm3VlVisionModel`` (Qwen-style flattened
patches with a ``grid_thw``, blocks at ``vision_config.hidden_size``), then
``Lfm3VlMultiModalProjector``: a LayerNorm, each ``spatial_merge_size``² block
merged (``hidden_size × merge²``), ``linear_1`` to ``projector_hidden_size``,
``linear_2`` to ``text_config.hidden_size``, split per item:
``[t·h·w / merge², text_config.hidden_size]`` for images and videos. The
projector is the last step before the LM, so a native class ships the same
width. Not the width: ``projector_hidden_size``, the merged
``hidden_size × merge²`` and the tower's ``hidden_size``.

Items: one merge block minimal (``grid_thw = (1, merge, merge)``). transformers
maps ``lfm3_vl`` to the Qwen2-VL image and Qwen3-VL video processor classes,
whose defaults (patch 14) do not fit the tower (patch 16 by default): the
checkpoint's preprocessor config sets patch size and budget, so there is no
token rule, and the profile item uses the Qwen2-VL image class's default
budget (1003520 pixels), the video one frame group of it.
"""

from __future__ import annotations

from ecwidth.families._backend import BACKEND, ProcessorPatches
from ecwidth.families.adapter import FamilyAdapter, register

#: ``Qwen2VLImageProcessor.size`` (shortest_edge, longest_edge), the class transformers maps to ``lfm3_vl``.
PIXELS = (56 * 56, 28 * 28 * 1280)


@register
class Lfm3VlAdapter(FamilyAdapter):
    model_types = ("lfm3_vl",)
    required_fields = ("vision_config.patch_size", "vision_config.spatial_merge_size", "text_config.hidden_size")
    items = {"image": ProcessorPatches(PIXELS), "video": ProcessorPatches(PIXELS)}
    engine = f"{BACKEND}: text_config.hidden_size via Lfm3VlMultiModalProjector, image and video"
