"""MiMo-V2 Omni: engine only; the vision merger's and the audio projection's out_hidden_size, each predicted."""

import pytest

import ecwidth
from ecwidth.errors import ConfigError, UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def widths(raw: dict) -> dict[str, int]:
    vision = raw["vision_config"]["out_hidden_size"]
    return {"image": vision, "video": vision, "audio": raw["audio_config"]["out_hidden_size"]}


def test_vision_and_audio_ship_their_own_out_hidden_size():
    raw = tiny_config("mimo_v2")
    assert predict_widths(raw) == widths(raw)
    assert len({raw["hidden_size"], raw["vision_config"]["hidden_size"], *widths(raw).values()}) == 4


def test_the_widths_follow_their_fields_and_absent_ones_are_the_engines_defaults():
    raw = tiny_config("mimo_v2")
    raw["vision_config"]["out_hidden_size"], raw["audio_config"]["out_hidden_size"] = 72, 88
    assert predict_widths(raw) == widths(raw)
    del raw["vision_config"]["out_hidden_size"], raw["audio_config"]["out_hidden_size"]
    assert predict_widths(raw) == {"image": 2048, "video": 2048, "audio": 4096}


def test_without_an_audio_config_there_is_no_audio():
    raw = tiny_config("mimo_v2")
    raw["audio_config"] = None
    vision = raw["vision_config"]["out_hidden_size"]
    assert predict_widths(raw) == {"image": vision, "video": vision}


def test_a_text_only_mimo_v2_config_is_refused():
    raw = tiny_config("mimo_v2")
    del raw["vision_config"]
    with pytest.raises(ConfigError, match="vision_config"):
        resolve_spec(raw)


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("mimo_v2"), device="cpu")


def test_the_published_auto_map_is_read_without_running_code():
    raw = tiny_config("mimo_v2")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.vision_config.out_hidden_size == raw["vision_config"]["out_hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "mimo_v2_flash"
