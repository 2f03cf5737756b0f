"""Voxtral-Realtime at tiny scale: the Hugging Face format ships the text width, vLLM's own class its pooled conv rows."""

from __future__ import annotations

from ecwidth.measuring.measure import measure
from tests.tiny_configs import tiny_config


def test_width_is_the_lm_hidden_size_not_the_pooled_conv_rows_vllm_ships_natively() -> None:
    config = tiny_config("voxtral_realtime")
    result = measure(config, device="cpu")
    assert result.widths == {"audio": config["text_config"]["hidden_size"]}
    pooled_conv_rows = config["audio_config"]["hidden_size"] * config["downsample_factor"]
    assert result.widths["audio"] != pooled_conv_rows


def test_named_as_vllms_own_class_it_ships_the_conv_rows_pooled_downsample_factor_at_a_time() -> None:
    config = tiny_config("voxtral_realtime")
    config["architectures"] = ["VoxtralRealtimeGeneration"]  # what vLLM makes of the Mistral-format checkpoint
    result = measure(config, device="cpu")
    assert result.widths == {"audio": config["audio_config"]["hidden_size"] * config["downsample_factor"]}
    assert result.widths["audio"] != config["text_config"]["hidden_size"]
    assert result.predicted == result.widths
