"""ERNIE-4.5-VL at tiny scale: the resampler ends at the LM's hidden size; a video item is a frame pair."""

from __future__ import annotations

import torch
from building import built
from tiny_configs import tiny_config

from ecwidth.measuring.measure import measure


def test_width_is_the_text_hidden_size_not_the_resampler_inside() -> None:
    cfg = tiny_config("ernie4_5_vl_moe")
    expected = cfg["text_config"]["hidden_size"]  # 40; the resampler's spatial_dim is 4 × 32 = 128
    assert expected not in (cfg["vision_config"]["hidden_size"], 4 * cfg["vision_config"]["hidden_size"])
    assert measure(cfg, device="cpu", dtype="float32").widths == {"image": expected, "video": expected}


def test_a_frame_pair_merges_into_one_token_row() -> None:
    adapter, model = built(tiny_config("ernie4_5_vl_moe"))
    item = adapter.dummy_item(model, "video", "minimal")
    assert item["video_grid_thw"].tolist() == [[2, 2, 2]]
    with torch.inference_mode():
        assert adapter.encode(model, "video", item).shape == (1, 40)
