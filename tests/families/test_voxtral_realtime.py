"""Voxtral-Realtime at tiny scale: transformers' port ships the text width, not the native class's pooled conv rows."""

from __future__ import annotations

from ecwidth.measuring.measure import measure
from tests.tiny_configs import tiny_config


def test_width_is_the_lm_hidden_size_not_the_pooled_conv_rows_vllm_ships_natively() -> None:
    config = tiny_config("voxtral_realtime")
    result = measure(config, device="cpu")
    assert result.widths == {"audio": config["text_config"]["hidden_size"]}
    pooled_conv_rows = config["audio_config"]["hidden_size"] * config["downsample_factor"]
    assert result.widths["audio"] != pooled_conv_rows
