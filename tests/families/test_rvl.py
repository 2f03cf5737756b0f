"""R-4B: engine only; its projector and the newline rows ship text_config.hidden_size, images only."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_the_text_hidden_size_not_the_towers():
    raw = tiny_config("rvl")
    assert predict_widths(raw) == {"image": raw["text_config"]["hidden_size"]}
    assert raw["text_config"]["hidden_size"] != raw["vision_config"]["hidden_size"]


def test_the_width_follows_the_text_hidden_size():
    raw = tiny_config("rvl")
    raw["text_config"]["hidden_size"] = 64
    assert predict_widths(raw) == {"image": 64}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("rvl"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("rvl")
    spec = resolve_spec(raw)
    assert spec.config.text_config.hidden_size == raw["text_config"]["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "llava_onevision"
