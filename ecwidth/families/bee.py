"""Bee (``bee``): LLaVA-OneVision's anyres tiling with its own projector to the text width; images only; engine only.

The checkpoint is remote code; no transformers release has the model type, so
the spec is the raw config read as data (``engine_only``) and the width is
predicted from the engine's rule. ``bee.py:BeeForConditionalGeneration`` is a
``LlavaOnevisionForConditionalGeneration`` whose ``BeeMultiModalProjector``
(LayerNorm, Linear to ``4 x text_config.hidden_size``, GELU, Linear) ends at
``text_config.hidden_size``; the image newline rows LLaVA-OneVision adds are
that width too (``image_newline``). Images only: ``BeeProcessingInfo`` is
LLaVA-NeXT's, whose ``get_supported_mm_limits`` lists images alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ecwidth.families.adapter import register
from ecwidth.families.internvl_chat import _TextWidth

_ENGINE_ONLY = "no transformers class can build this family (remote code, which ecwidth never runs)"


@register
class BeeAdapter(_TextWidth):
    model_types = ("bee",)
    #: the published model_type is not confirmed from the engine's sources: file configs by architecture too.
    architectures = ("BeeForConditionalGeneration",)
    predicted_only = {"image": _ENGINE_ONLY}

    def required_paths(self, raw: Mapping[str, Any]) -> tuple[str, ...]:
        return ("text_config.hidden_size",)
