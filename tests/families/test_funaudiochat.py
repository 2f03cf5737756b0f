"""Fun-Audio-Chat: engine only; the discrete encoder's rows, audio_config.output_dim wide, predicted."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_audio_is_the_encoders_output_dim_not_its_d_model_or_the_text_width():
    raw = tiny_config("funaudiochat")
    assert predict_widths(raw) == {"audio": raw["audio_config"]["output_dim"]}
    assert raw["audio_config"]["output_dim"] not in (raw["audio_config"]["d_model"], raw["text_config"]["hidden_size"])


def test_the_width_follows_output_dim_and_an_absent_one_is_the_config_class_default():
    raw = tiny_config("funaudiochat")
    raw["audio_config"]["output_dim"] = 72
    raw["audio_config"]["group_size"] = 2
    assert predict_widths(raw) == {"audio": 72}
    del raw["audio_config"]["output_dim"]
    assert predict_widths(raw) == {"audio": 3584}  # FunAudioChatAudioEncoderConfig's default


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("funaudiochat"), device="cpu")


def test_an_auto_map_in_the_config_is_read_without_running_code():
    raw = {**tiny_config("funaudiochat"), "auto_map": {"AutoModel": "modeling_funaudiochat.FunAudioChatModel"}}
    spec = resolve_spec(raw)
    assert spec.config.audio_config.output_dim == raw["audio_config"]["output_dim"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "qwen3"
