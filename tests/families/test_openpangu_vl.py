"""openPangu-VL: engine only; the last vision projection ships the top-level hidden_size, images and video."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_and_video_ship_the_lm_hidden_size_not_the_mergers():
    raw = tiny_config("openpangu_vl")
    assert predict_widths(raw) == {"image": raw["hidden_size"], "video": raw["hidden_size"]}
    assert raw["hidden_size"] not in (raw["vision_config"]["out_hidden_size"], raw["vision_config"]["hidden_size"])


def test_the_width_follows_hidden_size():
    raw = {**tiny_config("openpangu_vl"), "hidden_size": 64}
    assert predict_widths(raw) == {"image": 64, "video": 64}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("openpangu_vl"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("openpangu_vl")
    spec = resolve_spec(raw)
    assert spec.config.vision_config.out_hidden_size == raw["vision_config"]["out_hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "qwen2"
