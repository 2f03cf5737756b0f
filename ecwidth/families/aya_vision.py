"""Aya Vision (``aya_vision``): served by vLLM's Transformers backend; the pixel-shuffle SwiGLU projector's output.

vLLM served Aya Vision natively until 0.24 (``_PREVIOUSLY_SUPPORTED_MODELS``);
0.32 serves it through the Transformers backend
(``vllm/model_executor/models/transformers/multimodal.py``), which ships the
``pooler_output`` of ``AyaVisionModel.get_image_features``: every SigLIP tile
through ``AyaVisionMultiModalProjector`` (pixel shuffle by
``downsample_factor``, LayerNorm, ``linear_1`` to ``alignment_intermediate_size``,
a SwiGLU that halves it, ``linear_2`` to ``text_config.hidden_size``):
``[tiles × (image_size / patch_size / downsample_factor)², text hidden]``
per image. The projector is the last step before the LM, so a native class
ships the same width. Not the width: ``vision_config.hidden_size`` (the
tower), ``alignment_intermediate_size`` and its half (inside the SwiGLU).

Items: one ``image_size`` tile, the minimal item too (the tower's position
table is fixed to it). How many tiles an image is cut into is the
processor's setting, not the config's, so there is no token rule.
"""

from __future__ import annotations

from ecwidth.families._backend import BACKEND, ProcessorTiles
from ecwidth.families.adapter import FamilyAdapter, register


@register
class AyaVisionAdapter(FamilyAdapter):
    model_types = ("aya_vision",)
    required_fields = (
        "downsample_factor",
        "vision_config.image_size",
        "vision_config.patch_size",
        "text_config.hidden_size",
    )
    items = {"image": ProcessorTiles()}
    engine = f"{BACKEND}: text_config.hidden_size via AyaVisionMultiModalProjector (natively served until vLLM 0.24)"
