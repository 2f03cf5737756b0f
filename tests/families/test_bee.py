"""Bee: engine only; images predicted at the text width its projector and newline rows share."""

import pytest

import ecwidth
from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.errors import ConfigError, UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_the_text_hidden_size_not_the_vision_or_projector_inner_width():
    raw = tiny_config("bee")
    width = raw["text_config"]["hidden_size"]
    assert width not in (raw["vision_config"]["hidden_size"], 4 * width)
    assert predict_widths(raw) == {"image": width}


def test_the_width_follows_the_text_hidden_size():
    raw = tiny_config("bee")
    raw["text_config"]["hidden_size"] = 72
    assert predict_widths(raw) == {"image": 72}


def test_a_missing_text_width_is_named():
    raw = tiny_config("bee")
    del raw["text_config"]["hidden_size"]
    with pytest.raises(ConfigError, match=r"text_config\.hidden_size"):
        resolve_spec(raw)


def test_both_releases_serve_it_at_the_same_width():
    raw = tiny_config("bee")
    assert predict_widths(raw, engine=VLLM_0_32) == predict_widths(raw, engine=VLLM_0_33)


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("bee"), device="cpu")


def test_the_published_auto_map_is_read_without_running_code():
    raw = tiny_config("bee")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.text_config.hidden_size == raw["text_config"]["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "llava_onevision"


def test_a_config_is_filed_by_its_architecture_whatever_its_model_type():
    raw = {**tiny_config("bee"), "model_type": "llava_onevision"}  # the published type is not confirmed
    assert resolve_spec(raw).model_type == "bee"
    assert predict_widths(raw) == {"image": raw["text_config"]["hidden_size"]}
