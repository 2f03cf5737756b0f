"""Fun-ASR's original checkpoint: a qwen3 config routed by architecture; the engine's hard-coded adaptor width.

These tests need ecwidth to route a config by its ``architectures`` when its
``model_type`` is a text model's (``qwen3``); until that routing is in, they fail.
"""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config

#: ``FunASREncoder`` builds its adaptor with ``llm_dim=1024`` (funasr.py), whatever the config says.
ENGINE_ADAPTOR_WIDTH = 1024


def test_audio_is_the_engines_hard_coded_adaptor_width_not_a_config_field():
    raw = tiny_config("fun_asr_qwen3")
    assert raw["model_type"] == "qwen3" and raw["architectures"] == ["FunASRForConditionalGeneration"]
    assert predict_widths(raw) == {"audio": ENGINE_ADAPTOR_WIDTH}
    assert ENGINE_ADAPTOR_WIDTH not in (raw["hidden_size"], raw["audio_encoder_conf"]["output_size"])


def test_the_width_does_not_follow_the_text_hidden_size():
    raw = tiny_config("fun_asr_qwen3")
    raw["hidden_size"] = 72
    raw["audio_encoder_conf"]["output_size"] = 56
    assert predict_widths(raw) == {"audio": ENGINE_ADAPTOR_WIDTH}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("fun_asr_qwen3"), device="cpu")


def test_an_auto_map_in_the_config_is_read_without_running_code():
    raw = {**tiny_config("fun_asr_qwen3"), "auto_map": {"AutoModel": "modeling_funasr.FunASRNano"}}
    spec = resolve_spec(raw)
    assert spec.config.audio_encoder_conf.output_size == raw["audio_encoder_conf"]["output_size"]
