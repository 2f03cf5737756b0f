"""Isaac: engine only; the vision embedding's second linear, the top-level hidden_size, predicted."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_the_top_level_hidden_size():
    raw = tiny_config("isaac")
    vision = raw["vision_config"]
    shuffled = vision["hidden_size"] * vision["pixel_shuffle_scale_factor"] ** 2
    assert predict_widths(raw) == {"image": raw["hidden_size"]}
    assert raw["hidden_size"] not in (vision["hidden_size"], shuffled, 4 * shuffled)


def test_the_width_follows_hidden_size():
    raw = tiny_config("isaac")
    raw["hidden_size"] = 72
    assert predict_widths(raw) == {"image": 72}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("isaac"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("isaac")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.hidden_size == raw["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "qwen3"
