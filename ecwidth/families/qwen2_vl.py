"""Qwen2-VL and Qwen2.5-VL: the patch merger's output, one tensor per item, no DeepStack.

The merger projects into the LM's space, so the width is the merger's output
dim, which the two generations name differently: Qwen2-VL's
``vision_config.hidden_size`` (its tower runs at ``embed_dim``), Qwen2.5-VL's
``vision_config.out_hidden_size`` (its ``hidden_size`` is the tower's).
Reading the wrong one is the trap. transformers' feature methods return the
same per-item split in ``pooler_output``, which the default packing reads.

With video pruning on, Qwen2.5-VL's engine class appends 4 mrope position
channels (frame, row, column, merged width) to every image and video item;
ecwidth builds them from the item's grid and reads the width from the result.
The engine also drops pruned video rows, which changes the row count, not the
width; ecwidth keeps every row.
"""

from __future__ import annotations

from ecwidth.families._pruning import PrunedPositions
from ecwidth.families._qwen2_vl_items import PIXELS, Qwen2VLPatches
from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register


@register
class Qwen2VLAdapter(FamilyAdapter):
    model_types = ("qwen2_vl",)
    required_fields = ("vision_config.hidden_size", "vision_config.embed_dim", "vision_config.depth")
    items = {"image": Qwen2VLPatches(PIXELS), "video": Qwen2VLPatches(PIXELS)}
    width_fields = {"*": FieldWidth("vision_config.hidden_size")}
    look_alikes = ("vision_config.embed_dim",)


@register
class Qwen2_5_VLAdapter(PrunedPositions, Qwen2VLAdapter):
    model_types = ("qwen2_5_vl",)
    required_fields = ("vision_config.out_hidden_size", "vision_config.hidden_size", "vision_config.depth")
    width_fields = {"*": FieldWidth("vision_config.out_hidden_size")}
    look_alikes = ("vision_config.hidden_size",)
    pruning_layout = "qwen2_5_vl"
