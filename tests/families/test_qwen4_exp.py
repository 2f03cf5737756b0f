"""Qwen4Exp at tiny scale: vLLM's Qwen3-VL tower packs every listed DeepStack level; transformers' has none."""

from __future__ import annotations

from ecwidth.measuring.measure import measure
from tests.tiny_configs import deepstack_width, tiny_config


def test_listed_levels_are_packed_as_vllm_ships_them() -> None:
    cfg = tiny_config("qwen4_exp")
    vision = cfg["vision_config"]
    expected = vision["out_hidden_size"] * (1 + len(vision["deepstack_visual_indexes"]))  # 48 × 3
    result = measure(cfg, device="cpu", dtype="float32")
    assert result.widths == {"image": expected, "video": expected}


def test_an_empty_list_is_the_merger_output() -> None:
    cfg = tiny_config("qwen4_exp")
    cfg["vision_config"]["deepstack_visual_indexes"] = []
    width = cfg["vision_config"]["out_hidden_size"]
    assert measure(cfg, device="cpu", dtype="float32").widths == {"image": width, "video": width}


def test_pruned_videos_get_qwen3_vl_s_five_channels() -> None:
    cfg = tiny_config("qwen4_exp")
    result = measure(cfg, device="cpu", dtype="float32", video_pruning_rate=0.5)
    width = deepstack_width(cfg) + 5  # qwen3_vl.py: 4 mrope positions and a flag channel
    assert result.widths == result.predicted == {"image": width, "video": width}
