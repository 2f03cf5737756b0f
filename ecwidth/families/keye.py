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

from typing import Any

from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register

_WHY = "no transformers class can build this family (remote code, which ecwidth never runs)"


@register
class KeyeAdapter(FamilyAdapter):
    model_types = ("Keye", "KeyeVL1_5")
    engine_only = True
    required_fields = ("hidden_size",)
    predicted_only = {"image": _WHY, "video": _WHY}
    width_fields = {"*": FieldWidth("hidden_size")}
    look_alikes = ("vision_config.hidden_size", "intermediate_size")

    def lm_hidden_size(self, config: Any) -> int:
        return int(config.hidden_size)
