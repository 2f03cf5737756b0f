"""Aya Vision (``aya_vision``): the pixel-shuffle SwiGLU projector's output, at the text width.

vLLM dropped its own Aya Vision class, so a config falls back to the backend,
which ships the ``pooler_output`` of ``AyaVisionModel.get_image_features``:
every SigLIP tile through ``AyaVisionMultiModalProjector`` (pixel shuffle by
``downsample_factor``, LayerNorm, a SwiGLU at ``alignment_intermediate_size``,
``linear_2`` to the text width). The projector is the last step before the
LM, so a native class would ship the same width.

Items: one ``image_size`` tile, the minimal item too (the tower's position
table is fixed to it). How many tiles an image is cut into is the
processor's setting, not the config's, so there is no token rule.
"""

from __future__ import annotations

from ecwidth.families._backend import ProcessorTiles
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
    look_alikes = ("vision_config.hidden_size",)
