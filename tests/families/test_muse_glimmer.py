"""Muse Glimmer: vLLM ships vision_projection output (text hidden), not out_hidden_size or projector_hidden_size."""

from __future__ import annotations

from building import built
from tiny_configs import tiny_config

from ecwidth.measuring.measure import measure


def test_width_is_the_text_hidden_size():
    raw = tiny_config("muse_glimmer")
    expected = raw["text_config"]["hidden_size"]
    assert expected not in (raw["out_hidden_size"], raw["projector_hidden_size"])
    result = measure(raw, device="cpu", dtype="float32")
    assert result.widths == {"image": expected, "video": expected}


def test_profile_items_are_vllms_dummies():
    adapter, model = built(tiny_config("muse_glimmer"))  # merge 2
    image = adapter.dummy_item(model, "image", "profile")
    video = adapter.dummy_item(model, "video", "profile")
    assert image["image_grid_thw"].tolist() == [[1, 128, 128]]  # 64² = 4096 tokens
    assert video["video_grid_thw"].tolist() == [[48, 24, 24]]  # 96 frames in pairs, 12² = 144 tokens each
