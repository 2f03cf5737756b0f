"""Unlimited-OCR at tiny scale: the projector's output at the text width, a newline row per grid row and a separator."""

from __future__ import annotations

import torch

from ecwidth.measuring.measure import measure
from tests.building import built
from tests.tiny_configs import tiny_config


def test_width_is_the_lm_hidden_size_not_the_projectors_input() -> None:
    config = tiny_config("unlimited_ocr")
    result = measure(config, device="cpu")
    assert result.widths == {"image": config["text_config"]["hidden_size"]}
    vision = config["vision_config"]
    projector_input = vision["sam_config"]["downsample_channels"][-1] + vision["encoder_config"]["hidden_size"]
    assert result.widths["image"] != projector_input


def test_a_global_view_ships_its_grid_with_newlines_then_the_separator() -> None:
    raw = tiny_config("unlimited_ocr")
    adapter, model = built(raw)
    with torch.inference_mode():
        shipped = adapter.encode(model, "image", adapter.dummy_item(model, "image", "profile"))
    sam = raw["vision_config"]["sam_config"]
    side = sam["image_size"] // sam["patch_size"] // 4  # SAM's patches, then its two stride-2 convolutions
    assert len(shipped) == side * (side + 1) + 1
