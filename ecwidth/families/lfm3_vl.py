"""LFM3-VL (``lfm3_vl``): a Qwen-style tower and a merge-block projector to the text width, images and videos.

vLLM's ``Lfm2VLForConditionalGeneration`` reads LFM2-VL's SigLIP2 NaFlex tower,
not this one. ``Lfm3VlModel.get_image_features`` (``get_video_features`` calls
it with the video's grid) runs the tower on flattened patches with a
``grid_thw``, then the projector: a LayerNorm, each ``spatial_merge_size``²
block merged, ``linear_1`` to ``projector_hidden_size``, ``linear_2`` to the
text width, ``[t·h·w / merge², text hidden]`` per item. The projector is the
last step before the LM, so a native class would ship the same width.

Items: one merge block minimal (``grid_thw = (1, merge, merge)``). transformers
maps ``lfm3_vl`` to the Qwen2-VL image and Qwen3-VL video processor classes,
whose defaults (patch 14) do not fit the tower (patch 16 by default): the
checkpoint's preprocessor config sets patch size and budget, so there is no
token rule, and the profile item uses the Qwen2-VL image class's default
budget (1003520 pixels), the video one frame group of it.
"""

from __future__ import annotations

from ecwidth.families._backend import ProcessorPatches
from ecwidth.families.adapter import FamilyAdapter, register

#: ``Qwen2VLImageProcessor.size`` (shortest_edge, longest_edge), the class transformers maps to ``lfm3_vl``.
PIXELS = (56 * 56, 28 * 28 * 1280)


@register
class Lfm3VlAdapter(FamilyAdapter):
    model_types = ("lfm3_vl",)
    transformers_since = "5.23.0"
    required_fields = ("vision_config.patch_size", "vision_config.spatial_merge_size", "text_config.hidden_size")
    items = {"image": ProcessorPatches(PIXELS), "video": ProcessorPatches(PIXELS)}
    look_alikes = ("projector_hidden_size", "vision_config.hidden_size")
