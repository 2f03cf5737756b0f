"""OpenCUA: engine only; Qwen2.5-VL's merger ships vision_config.out_hidden_size, +4 with video pruning."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_the_mergers_out_hidden_size():
    raw = tiny_config("opencua")
    vision = raw["vision_config"]
    assert predict_widths(raw) == {"image": vision["out_hidden_size"]}
    assert vision["out_hidden_size"] not in (vision["hidden_size"], raw["text_config"]["hidden_size"])


def test_the_width_follows_out_hidden_size():
    raw = tiny_config("opencua")
    raw["vision_config"]["out_hidden_size"] = 56
    assert predict_widths(raw) == {"image": 56}


def test_video_pruning_appends_the_four_mrope_positions_to_images():
    raw = tiny_config("opencua")
    assert predict_widths(raw, video_pruning_rate=0.5) == {"image": raw["vision_config"]["out_hidden_size"] + 4}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("opencua"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("opencua")
    spec = resolve_spec(raw)
    assert spec.config.vision_config.out_hidden_size == raw["vision_config"]["out_hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "qwen2_5_vl"
