"""MiniCPM-o: engine only; images, video and audio all ship the top-level hidden_size; never measured."""

import pytest

import ecwidth
from ecwidth.errors import ConfigError, UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_every_modality_ships_the_top_level_hidden_size():
    raw = tiny_config("minicpmo")
    width = raw["hidden_size"]
    assert predict_widths(raw) == {"image": width, "video": width, "audio": width}
    assert width not in (raw["audio_config"]["d_model"], raw["audio_config"]["encoder_ffn_dim"] // 4)


def test_the_width_follows_hidden_size():
    raw = {**tiny_config("minicpmo"), "hidden_size": 88}
    assert set(predict_widths(raw).values()) == {88}


def test_version_4_5_is_served_and_a_config_without_a_version_takes_no_video():
    raw = {**tiny_config("minicpmo"), "version": 4.5}
    assert set(predict_widths(raw)) == {"image", "video", "audio"}
    del raw["version"]  # the class is 2.6's; the processing info reads 2.5, which takes no video
    assert predict_widths(raw) == {"image": raw["hidden_size"], "audio": raw["hidden_size"]}


def test_a_version_the_engine_has_no_class_for_is_refused():
    with pytest.raises(ConfigError, match="version 4.0 has no engine class"):
        resolve_spec({**tiny_config("minicpmo"), "version": "4.0"})


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("minicpmo"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("minicpmo")
    spec = resolve_spec(raw)
    assert spec.config.audio_config.d_model == raw["audio_config"]["d_model"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "qwen2"
