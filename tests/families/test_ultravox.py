"""Ultravox: engine only; the projector's output, the (wrapped) text model's hidden size, predicted."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_audio_is_the_text_hidden_size_not_the_projectors_middle_width():
    raw = tiny_config("ultravox")
    assert predict_widths(raw) == {"audio": raw["text_config"]["hidden_size"]}
    assert raw["hidden_size"] != raw["text_config"]["hidden_size"] != raw["audio_config"]["d_model"]


def test_the_width_follows_the_text_model_and_a_transformer_projector_ends_there_too():
    raw = tiny_config("ultravox")
    raw["text_config"]["hidden_size"] = 56
    raw["num_projector_layers"] = 2
    assert predict_widths(raw) == {"audio": 56}


def test_a_wrapped_multimodal_model_is_read_through_its_own_text_config():
    raw = tiny_config("ultravox")
    raw["text_config"] = {"model_type": "gemma3", "text_config": {"model_type": "gemma3_text", "hidden_size": 72}}
    assert predict_widths(raw) == {"audio": raw["text_config"]["text_config"]["hidden_size"]}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("ultravox"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("ultravox")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.text_config.hidden_size == raw["text_config"]["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "llama"
