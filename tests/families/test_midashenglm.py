"""MiDashengLM: engine only; AudioProjectorSubsample's output, the text hidden size, predicted."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_audio_is_the_text_hidden_size():
    raw = tiny_config("midashenglm")
    assert predict_widths(raw) == {"audio": raw["text_config"]["hidden_size"]}
    assert raw["text_config"]["hidden_size"] not in (
        raw["audio_encoder_config"]["embed_dim"],
        raw["audio_encoder_config"]["outputdim"],
    )


def test_the_width_follows_the_text_model_and_an_absent_one_is_the_config_class_default():
    raw = tiny_config("midashenglm")
    raw["text_config"]["hidden_size"] = 72
    raw["subsample_factor"] = 3
    assert predict_widths(raw) == {"audio": 72}
    del raw["text_config"]["hidden_size"]
    assert predict_widths(raw) == {"audio": 3584}  # Qwen2_5OmniTextConfig's default
    del raw["text_config"]
    assert predict_widths(raw) == {"audio": 3584}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("midashenglm"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("midashenglm")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.text_config.hidden_size == raw["text_config"]["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "qwen2"
