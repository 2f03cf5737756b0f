"""Kimi-VL: engine only; the projector's output, text_config.hidden_size, predicted."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_the_text_hidden_size():
    raw = tiny_config("kimi_vl")
    vision = raw["vision_config"]
    kh, kw = vision["merge_kernel_size"]
    assert predict_widths(raw) == {"image": raw["text_config"]["hidden_size"]}
    assert raw["text_config"]["hidden_size"] not in (vision["hidden_size"], vision["hidden_size"] * kh * kw)


def test_the_width_follows_the_text_hidden_size_not_the_tower():
    raw = tiny_config("kimi_vl")
    raw["text_config"]["hidden_size"] = 72
    raw["vision_config"]["hidden_size"] = 16
    assert predict_widths(raw) == {"image": 72}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("kimi_vl"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("kimi_vl")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.text_config.hidden_size == raw["text_config"]["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "deepseek_v3"
