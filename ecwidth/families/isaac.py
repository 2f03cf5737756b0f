"""Isaac (``isaac``): a pixel-shuffled SigLIP2, then a two-linear ``vision_embedding`` to the top-level ``hidden_size``.

vLLM's ``IsaacForConditionalGeneration`` (``isaac.py``) runs
``IsaacVisionEmbedding``: the SigLIP2 tower (``vision_config.hidden_size``),
pixel-shuffled by ``vision_config.pixel_shuffle_scale_factor`` (``hidden_size
× factor²``), ``linear_fc1`` to four times that, SiLU, and ``linear_fc2`` to
``output_dim=config.hidden_size``; ``_process_image_input`` splits the rows
per image. ``IsaacConfig`` (``transformers_utils/configs/isaac.py``) is a
``Qwen3Config``: ``hidden_size`` is its top-level field (the Qwen3 LM is built
from the top-level config too, not from ``text_config``). Images only.

The config class is vLLM's own; the installed transformers knows no
``isaac`` type, so the spec is the raw config read as data (``engine_only``)
and the width is predicted, never measured.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import EngineRuleAdapter


@register
class IsaacAdapter(EngineRuleAdapter):
    model_types = ("isaac",)
    required_fields = ("hidden_size",)
    width_fields = {"image": FieldWidth("hidden_size")}
    look_alikes = ("vision_config.hidden_size",)

    def lm_hidden_size(self, config: Any) -> int:
        return int(config.hidden_size)  # the top-level field, not text_config's
