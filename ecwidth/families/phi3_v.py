"""Phi-3-vision and Phi-3.5-vision (``phi3_v``): the HD image embedding's projector, at the LM's width.

Engine only: the config is the checkpoint's remote code (a flat Phi-3 config
with ``img_processor`` and ``embd_layer``), which transformers has no class
for, so ecwidth reads it as data and predicts the width.

``Phi3HDImageEmbedding`` (``phi3v.py``) runs a CLIP ViT-L/14-336 whose shape
the engine fixes (``CLIP_VIT_LARGE_PATCH14_336_CONFIG``), merges 2×2 patches
into ``img_processor.image_dim_out × 4`` channels, lays out the global and
sub-image grids with the ``glb_GN``/``sub_GN`` separator rows (that wide too),
then ``img_projection`` (two linears) maps every row to ``dim_projection``:
``n_embd`` where the config has it, else ``hidden_size``. So each image ships
that width; ``img_processor.image_dim_out`` only looks like it. Images only.
The engine asserts ``embd_layer.use_hd_transform`` and
``with_learnable_separator``; a config without them is refused here too.
"""

from __future__ import annotations

from typing import Any

from ecwidth.errors import ConfigError
from ecwidth.families.adapter import lookup, register
from ecwidth.families.engine_rule import CHECKPOINT_CODE, EngineRuleAdapter


@register
class Phi3VAdapter(EngineRuleAdapter):
    model_types = ("phi3_v",)
    required_fields = (
        "hidden_size",
        "img_processor.image_dim_out",
        "embd_layer.use_hd_transform",
        "embd_layer.with_learnable_separator",
    )
    why = CHECKPOINT_CODE
    look_alikes = ("img_processor.image_dim_out",)

    def translate(self, raw: dict[str, Any]) -> dict[str, Any]:
        # Phi3HDImageEmbedding.__init__ asserts both (a missing key reads False).
        off = [
            f"embd_layer.{key}"
            for key in ("use_hd_transform", "with_learnable_separator")
            if lookup(raw, f"embd_layer.{key}") is False
        ]
        if off:
            raise ConfigError(f"this phi3_v config sets {', '.join(off)} to false; vLLM's Phi3HDImageEmbedding "
                              "asserts both are true and serves no other layout")  # fmt: skip
        return raw

    def lm_hidden_size(self, config: Any) -> int:
        # Phi3HDImageEmbedding: "n_embed or hidden_size".
        return int(getattr(config, "n_embd", None) or config.hidden_size)
