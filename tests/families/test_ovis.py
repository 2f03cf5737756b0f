"""Ovis (remote-code ``ovis``): engine only; vte rows, the top-level hidden_size, predicted."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_the_top_level_hidden_size():
    raw = tiny_config("ovis")
    tokenizer = raw["visual_tokenizer_config"]
    assert predict_widths(raw) == {"image": raw["hidden_size"]}
    assert raw["hidden_size"] not in (tokenizer["vocab_size"], tokenizer["backbone_config"]["hidden_size"])


def test_the_width_follows_the_vte_width():
    raw = tiny_config("ovis")
    raw["hidden_size"] = 72
    assert predict_widths(raw) == {"image": 72}


def test_transformers_port_is_another_family():
    assert predict_widths(tiny_config("ovis2")) == {"image": tiny_config("ovis2")["hidden_size"]}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("ovis"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("ovis")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.hidden_size == raw["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "ovis2"
