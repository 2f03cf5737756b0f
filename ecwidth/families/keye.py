"""Keye-VL (``Keye``) and Keye-VL-1.5 (``KeyeVL1_5``), remote code: SigLIP, 2×2 merge, ``mlp_AR`` to ``hidden_size``.

vLLM's ``KeyeForConditionalGeneration`` (``keye.py``) and
``KeyeVL1_5ForConditionalGeneration`` (``keye_vl1_5.py``) run the SigLIP tower
(``vision_config.hidden_size`` wide), then ``mlp_AR``: ``Projector`` /
``KeyeVL1_5Projector``, a fixed 2×2 merge (``vision_config.hidden_size × 4``),
two linears, the second to ``text_config.hidden_size``, where the
``text_config`` they are given is the whole config
(``BaseKeyeModule.__init__``: ``_build_projector(config, config.vision_config)``),
so the width is the top-level ``hidden_size`` (the Qwen3 LM's, a flat
config). Images and videos (each video frame a block of rows), both through
the same projector.

The configs are remote code; transformers knows neither type, so the spec is
the raw config read as data (``engine_only``) and the width is predicted,
never measured.
"""

from __future__ import annotations

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import REMOTE_CODE, EngineRuleAdapter


@register
class KeyeAdapter(EngineRuleAdapter):
    model_types = ("Keye", "KeyeVL1_5")
    shipped = ("image", "video")
    why = REMOTE_CODE
    required_fields = ("hidden_size",)
    width_fields = {"*": FieldWidth("hidden_size")}
    look_alikes = ("vision_config.hidden_size", "intermediate_size")
