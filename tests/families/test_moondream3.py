"""Moondream 3: engine only; the BOS row and vision_proj's output, config.text.dim, predicted."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_the_text_dim():
    raw = tiny_config("moondream3")
    vision = raw["config"]["vision"]
    assert predict_widths(raw) == {"image": raw["config"]["text"]["dim"]}
    assert raw["config"]["text"]["dim"] not in (vision["enc_dim"], 2 * vision["enc_dim"], vision["proj_inner_dim"])


def test_the_width_follows_the_text_dim_and_defaults_to_the_config_classs():
    raw = tiny_config("moondream3")
    raw["config"]["text"]["dim"] = 72
    assert predict_widths(raw) == {"image": 72}
    del raw["config"]["text"]["dim"]
    assert predict_widths(raw) == {"image": 2048}  # Moondream3TextConfig's default
    raw["config"] = {}
    assert predict_widths(raw) == {"image": 2048}


def test_the_engines_own_architecture_name_is_the_same_class():
    raw = {**tiny_config("moondream3"), "architectures": ["Moondream3ForCausalLM"]}
    assert predict_widths(raw) == {"image": raw["config"]["text"]["dim"]}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("moondream3"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("moondream3")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.config.text.dim == raw["config"]["text"]["dim"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "moondream1"
