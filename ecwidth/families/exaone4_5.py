"""EXAONE 4.5: a Qwen2.5-VL tower with grouped-query attention blocks; Qwen2.5-VL's merger, so its width.

The engine's class subclasses Qwen2.5-VL's and only swaps the vision blocks for
GQA ones (``num_key_value_heads``); the patch merger, and so the width and the
pruning channels on images, are Qwen2.5-VL's. Published configs set
``out_hidden_size`` to the LM's width by convention, so only a config where
they differ tells the right field from the wrong one.

The trap is video pruning: the class keeps Qwen2-VL's processor, which passes
no ``second_per_grid_ts``, and the inherited pruned-video path cannot run
without it, so no pruned video item is ever shipped (``unserved_with``).
Items and token counts are Qwen2-VL's (transformers and the engine both use
Qwen2-VL's processors).
"""

from __future__ import annotations

from ecwidth.families._qwen2_vl_items import PIXELS, Qwen2VLPatches
from ecwidth.families.adapter import register
from ecwidth.families.qwen2_vl import Qwen2_5_VLAdapter


@register
class Exaone4_5Adapter(Qwen2_5_VLAdapter):
    model_types = ("exaone4_5",)
    required_fields = (
        "vision_config.out_hidden_size",
        "vision_config.hidden_size",
        "vision_config.depth",
        "vision_config.num_key_value_heads",
    )
    items = {"image": Qwen2VLPatches(PIXELS), "video": Qwen2VLPatches(PIXELS)}
    look_alikes = ("vision_config.hidden_size", "text_config.hidden_size")
