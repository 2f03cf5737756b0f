"""Phi-4-multimodal: engine only; images and audio ship n_embd, else hidden_size; never measured."""

import pytest

import ecwidth
from ecwidth.errors import ConfigError, UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_and_audio_ship_the_lm_hidden_size_not_the_conformers_width():
    raw = tiny_config("phi4mm")
    assert predict_widths(raw) == {"image": raw["hidden_size"], "audio": raw["hidden_size"]}
    assert raw["hidden_size"] != raw["audio_processor"]["config"]["attention_dim"]


def test_n_embd_where_the_config_has_it_wins():
    raw = {**tiny_config("phi4mm"), "n_embd": 56}
    assert predict_widths(raw) == {"image": 56, "audio": 56}


def test_an_audio_processor_the_engine_cannot_build_is_refused():
    raw = tiny_config("phi4mm")
    raw["audio_processor"]["name"] = "whisper"
    with pytest.raises(ConfigError, match="cascades"):
        resolve_spec(raw)


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("phi4mm"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("phi4mm")
    spec = resolve_spec(raw)
    assert spec.config.audio_processor.config.attention_dim == raw["audio_processor"]["config"]["attention_dim"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "phi3"
