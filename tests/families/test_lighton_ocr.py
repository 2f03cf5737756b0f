"""LightOnOCR at tiny scale: the projector's output at the text width, one row per merged patch."""

from __future__ import annotations

import torch

from ecwidth.families.items import ItemSize
from tests.building import built
from tests.tiny_configs import tiny_config


def test_the_profile_image_ships_one_row_per_merged_patch_of_the_longest_edge() -> None:
    raw = tiny_config("lighton_ocr")
    vision = raw["vision_config"]
    adapter, model = built(raw)
    with torch.inference_mode():
        shipped = adapter.encode(model, "image", adapter.dummy_item(model, "image", "profile"))
    side = vision["image_size"] // (vision["patch_size"] * raw["spatial_merge_size"])
    assert len(shipped) == side * side
    longest = ItemSize("image", vision["image_size"], vision["image_size"])
    assert adapter.embed_tokens(model.config, longest) == len(shipped)
