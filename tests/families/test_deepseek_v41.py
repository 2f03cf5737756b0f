"""DeepSeek-V4.1: engine only; DeepSeek-V4's aligner ships the (flattened) text_config.hidden_size."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_the_text_hidden_size_not_the_vits_or_the_unfolds():
    raw = tiny_config("deepseek_v41")
    vision = raw["vision_config"]
    assert predict_widths(raw) == {"image": raw["text_config"]["hidden_size"]}
    unfolded = vision["hidden_size"] * vision["downsample_ratio"] ** 2
    assert raw["text_config"]["hidden_size"] not in (vision["hidden_size"], unfolded)


def test_the_width_follows_the_text_hidden_size():
    raw = tiny_config("deepseek_v41")
    raw["text_config"]["hidden_size"] = 64
    assert predict_widths(raw) == {"image": 64}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("deepseek_v41"), device="cpu")


def test_an_auto_map_is_read_without_running_code():
    raw = {**tiny_config("deepseek_v41"), "auto_map": {"AutoConfig": "configuration_deepseek.DeepseekV41Config"}}
    spec = resolve_spec(raw)
    assert spec.config.vision_config.hidden_size == raw["vision_config"]["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "deepseek_v4"
