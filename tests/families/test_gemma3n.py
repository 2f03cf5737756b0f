"""Gemma 3n: both embedders end at the text hidden size; predicted only (the vision tower is timm's)."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from tests.tiny_configs import tiny_config


def test_image_and_audio_are_the_text_hidden_size_not_their_towers_widths():
    raw = tiny_config("gemma3n")
    width = raw["text_config"]["hidden_size"]
    assert predict_widths(raw) == {"image": width, "audio": width}
    assert width not in (raw["vision_config"]["hidden_size"], raw["audio_config"]["hidden_size"])


def test_the_widths_follow_the_text_model():
    raw = tiny_config("gemma3n")
    raw["text_config"]["hidden_size"] = 72
    raw["vision_config"]["hidden_size"] = 56
    assert predict_widths(raw) == {"image": 72, "audio": 72}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="timm"):
        ecwidth.measure(tiny_config("gemma3n"), device="cpu")


def test_timm_is_never_imported():
    import sys

    predict_widths(tiny_config("gemma3n"))
    assert "timm" not in sys.modules
