"""FireRedASR2: a qwen2 config routed by architecture; FireRedASR2Adapter's output, the config's hidden_size.

These tests need ecwidth to route a config by its ``architectures`` when its
``model_type`` is a text model's (``qwen2``); until that routing is in, they fail.
"""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_audio_is_the_top_level_hidden_size_not_the_conformers_width():
    raw = tiny_config("fire_red_asr2_qwen2")
    assert raw["model_type"] == "qwen2" and raw["architectures"] == ["FireRedASR2ForConditionalGeneration"]
    assert predict_widths(raw) == {"audio": raw["hidden_size"]}
    assert raw["hidden_size"] != raw["audio_encoder_conf"]["d_model"]


def test_the_width_follows_hidden_size_and_not_the_downsampling():
    raw = tiny_config("fire_red_asr2_qwen2")
    raw["hidden_size"] = 72
    raw["encoder_downsample_rate"] = 4
    assert predict_widths(raw) == {"audio": 72}
    del raw["hidden_size"]
    assert predict_widths(raw) == {"audio": 4096}  # Qwen2Config's default


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("fire_red_asr2_qwen2"), device="cpu")


def test_an_auto_map_in_the_config_is_read_without_running_code():
    raw = {**tiny_config("fire_red_asr2_qwen2"), "auto_map": {"AutoModel": "modeling_fireredasr2.FireRedAsr2"}}
    spec = resolve_spec(raw)
    assert spec.config.audio_encoder_conf.d_model == raw["audio_encoder_conf"]["d_model"]
