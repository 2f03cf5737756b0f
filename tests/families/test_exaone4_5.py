"""EXAONE 4.5 at tiny scale: the Qwen2.5-VL merger's ``out_hidden_size``, not the tower's or the LM's width."""

from __future__ import annotations

from tiny_configs import tiny_config

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.reading.configs import resolve_spec


def test_width_is_the_merger_output() -> None:
    cfg = tiny_config("exaone4_5")
    expected = cfg["vision_config"]["out_hidden_size"]  # 48; tower 32, LM 40
    assert expected not in (cfg["vision_config"]["hidden_size"], cfg["text_config"]["hidden_size"])
    result = measure(cfg, device="cpu", dtype="float32")
    assert result.widths == {"image": expected, "video": expected}


def test_token_counts_are_qwen2_vl_s() -> None:
    config = resolve_spec(tiny_config("exaone4_5")).config
    adapter = adapter_for("exaone4_5")
    assert adapter.embed_tokens(config, ItemSize("image", 448, 448)) == 16 * 16
    assert adapter.embed_tokens(config, ItemSize("video", 448, 448, frames=8)) == 4 * 16 * 16
