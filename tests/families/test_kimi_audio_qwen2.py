"""Kimi-Audio: a qwen2-schema config routed by architecture; the VQ-adaptor's output, the config's hidden_size.

These tests need ecwidth to route a config by its ``architectures`` when its
``model_type`` is a text model's (``qwen2``); until that routing is in, they fail.
"""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_audio_is_the_top_level_hidden_size_not_the_adaptors_input():
    raw = tiny_config("kimi_audio_qwen2")
    assert raw["architectures"] == ["MoonshotKimiaForCausalLM"]
    assert predict_widths(raw) == {"audio": raw["hidden_size"]}
    assert raw["hidden_size"] != raw["kimia_adaptor_input_dim"]


def test_the_width_follows_hidden_size():
    raw = tiny_config("kimi_audio_qwen2")
    raw["hidden_size"] = 72
    raw["kimia_adaptor_input_dim"] = 256
    assert predict_widths(raw) == {"audio": 72}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("kimi_audio_qwen2"), device="cpu")


def test_the_published_auto_map_is_read_without_running_code():
    raw = tiny_config("kimi_audio_qwen2")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.hidden_size == raw["hidden_size"]
