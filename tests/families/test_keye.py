"""Keye-VL and Keye-VL-1.5 (remote code): engine only; mlp_AR's output, the flat config's hidden_size."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config

TYPES = ["Keye", "KeyeVL1_5"]


@pytest.mark.parametrize("model_type", TYPES)
def test_images_and_videos_ship_the_top_level_hidden_size(model_type):
    raw = tiny_config(model_type)
    width = raw["hidden_size"]
    assert predict_widths(raw) == {"image": width, "video": width}
    vision = raw["vision_config"]["hidden_size"]
    assert width not in (vision, vision * 4)  # neither the tower nor its 2x2 merge


@pytest.mark.parametrize("model_type", TYPES)
def test_the_width_follows_hidden_size(model_type):
    raw = tiny_config(model_type)
    raw["hidden_size"] = 72
    assert predict_widths(raw) == {"image": 72, "video": 72}


@pytest.mark.parametrize("model_type", TYPES)
def test_measure_refuses_and_says_why(model_type):
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config(model_type), device="cpu")


@pytest.mark.parametrize("model_type", TYPES)
def test_a_published_auto_map_is_read_without_running_code(model_type):
    raw = tiny_config(model_type)
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.hidden_size == raw["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "qwen3"
