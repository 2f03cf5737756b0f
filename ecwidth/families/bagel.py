"""BAGEL (``bagel``): SigLIP patches through the MLP connector to the Qwen2 width, for understanding only.

vLLM's ``BagelForConditionalGeneration`` (``bagel.py``) serves visual
understanding: with ``visual_und`` on it runs ``SiglipVisionModel``
(``vit_config.hidden_size`` wide), ``BagelVisionMLP`` (``fc1`` and ``fc2`` to
``llm_config.hidden_size``) and adds the 2-D sin-cos ``vit_pos_embed`` at
that width; ``_process_image_input`` ships one tensor per image. The VAE
(generation) path is not an encoder the engine ships, and with
``visual_und`` off the tower is a ``StageMissingLayer``: no modality.
``BagelConfig`` builds ``llm_config`` as a ``Qwen2Config``, whose default
``hidden_size`` (4096) stands in where the file omits it; ``visual_und``
defaults to true. Images are the only modality.

The config class is vLLM's own (``transformers_utils/configs/bagel.py``);
transformers knows no ``bagel``, so the spec is the raw config
(``engine_only``) and the width is predicted, never measured.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import register
from ecwidth.families.engine_rule import EngineRuleAdapter


@register
class BagelAdapter(EngineRuleAdapter):
    model_types = ("bagel",)
    #: ``Qwen2Config``'s default ``hidden_size``, where ``llm_config`` names none.
    default_hidden_size = 4096
    required_fields = ("llm_config",)
    look_alikes = ("vit_config.hidden_size", "vae_config.z_channels")

    def predict(self, config: Any) -> dict[str, int]:
        # visual_und off: the engine builds no vision tower, so nothing is shipped.
        return {"image": self.lm_hidden_size(config)} if getattr(config, "visual_und", True) else {}
