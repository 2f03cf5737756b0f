"""ERNIE-4.5-VL at tiny scale: the resampler ends at the LM's hidden size; a video item is a frame pair."""

from __future__ import annotations

import torch

from ecwidth.measuring.measure import measure_widths
from tests.building import build_on_cpu, built
from tests.tiny_configs import tiny_config


def test_width_is_the_text_hidden_size_not_the_resampler_inside() -> None:
    cfg = tiny_config("ernie4_5_vl_moe")
    expected = cfg["text_config"]["hidden_size"]
    assert expected != 4 * cfg["vision_config"]["hidden_size"]  # the resampler's spatial_dim
    with torch.inference_mode():
        assert measure_widths(build_on_cpu(cfg)) == {"image": expected, "video": expected}


def test_a_frame_pair_merges_into_one_token_row() -> None:
    cfg = tiny_config("ernie4_5_vl_moe")
    adapter, model = built(cfg)
    item = adapter.dummy_item(model, "video", "minimal")
    assert item["video_grid_thw"].tolist() == [[2, 2, 2]]
    with torch.inference_mode():
        assert adapter.encode(model, "video", item).shape == (1, cfg["text_config"]["hidden_size"])
