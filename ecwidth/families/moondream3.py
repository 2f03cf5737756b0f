"""Moondream 3 (``moondream3``): global and pooled local SigLIP features through ``vision_proj`` to ``config.text.dim``.

vLLM's ``Moondream3ForCausalLM`` (``moondream3.py``; the class of
``HfMoondream`` too) encodes an image's crops (``config.vision.enc_dim``
wide), pools the reconstructed local grid to ``enc_n_layers``², concatenates
it to the global crop's features (``enc_dim × 2``) and runs
``Moondream3VisionProjection`` (``fc1`` to ``config.vision.proj_inner_dim``,
``fc2`` to ``text_config.dim``); ``embed_multimodal`` ships the BOS token's
embedding row, then those rows, all the text width. The file nests its
fields under ``config`` (``config.text``, ``config.vision``), which
``Moondream3Config`` (``transformers_utils/configs/moondream3.py``) parses,
with ``Moondream3TextConfig``'s default ``dim`` 2048 where ``config.text``
omits it. Images only.

The config class is vLLM's own; transformers knows no ``moondream3`` type,
so the spec is the raw config read as data (``engine_only``) and the width is
predicted, never measured.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import register
from ecwidth.families.engine_rule import EngineRuleAdapter

#: ``Moondream3TextConfig``'s default ``dim``, where ``config.text`` names none.
DEFAULT_TEXT_DIM = 2048


@register
class Moondream3Adapter(EngineRuleAdapter):
    model_types = ("moondream3",)
    required_fields = ("config",)  # the dict Moondream3Config parses; published files carry it, defaults fill the rest
    look_alikes = ("config.vision.enc_dim", "config.vision.proj_inner_dim")

    def lm_hidden_size(self, config: Any) -> int:
        text = getattr(getattr(config, "config", None), "text", None)
        return int(getattr(text, "dim", DEFAULT_TEXT_DIM) if text is not None else DEFAULT_TEXT_DIM)

    def predict(self, config: Any) -> dict[str, int]:
        # Not a plain field lookup: the width is nested under config.text, with the config class's default.
        return {"image": self.lm_hidden_size(config)}
