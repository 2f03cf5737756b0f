"""Cosmos3-Omni at tiny scale: Qwen3-VL DeepStack packing, ``out_hidden_size × (1 + levels)``."""

from __future__ import annotations

from ecwidth.measuring.measure import measure
from tests.tiny_configs import tiny_config


def test_width_packs_every_deepstack_level() -> None:
    cfg = tiny_config("cosmos3_omni")
    vision = cfg["vision_config"]
    levels = len(vision["deepstack_visual_indexes"])
    expected = vision["out_hidden_size"] * (1 + levels)
    result = measure(cfg, device="cpu", dtype="float32")
    assert result.widths == {"image": expected, "video": expected}
    assert result.deepstack_levels == {"image": levels, "video": levels}


def test_without_deepstack_levels_the_width_is_the_merger_output() -> None:
    cfg = tiny_config("cosmos3_omni")
    cfg["vision_config"]["deepstack_visual_indexes"] = []
    assert measure(cfg, device="cpu", dtype="float32").widths["image"] == cfg["vision_config"]["out_hidden_size"]
