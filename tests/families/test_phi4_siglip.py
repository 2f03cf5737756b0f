"""Phi-4-reasoning-vision: engine only; the LLaVA projector ships the top-level hidden_size; never measured."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_the_lm_hidden_size_not_the_towers():
    raw = tiny_config("phi4-siglip")
    assert predict_widths(raw) == {"image": raw["hidden_size"]}
    assert raw["hidden_size"] not in (raw["mm_hidden_size"], raw["vision_config"]["hidden_size"])


def test_the_width_follows_hidden_size():
    raw = {**tiny_config("phi4-siglip"), "hidden_size": 64}
    assert predict_widths(raw) == {"image": 64}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("phi4-siglip"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("phi4-siglip")
    spec = resolve_spec(raw)
    assert spec.config.mm_hidden_size == raw["mm_hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "phi3"
