"""MiniCPM-V: engine only; the resampler ships the top-level hidden_size, video from 2.6 on; never measured."""

import pytest

import ecwidth
from ecwidth.errors import ConfigError, UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_and_video_ship_the_top_level_hidden_size():
    raw = tiny_config("minicpmv")
    assert predict_widths(raw) == {"image": raw["hidden_size"], "video": raw["hidden_size"]}


def test_the_width_follows_hidden_size_not_the_towers_width():
    raw = tiny_config("minicpmv")
    raw["hidden_size"] = 72
    assert predict_widths(raw) == {"image": 72, "video": 72}
    assert raw["vision_config"]["hidden_size"] != 72


@pytest.mark.parametrize(("version", "video"), [(2.0, False), (2.5, False), (2.6, True), ("4.0", True), (4.5, True)])
def test_video_is_taken_from_version_2_6_on(version, video):
    raw = {**tiny_config("minicpmv"), "version": version}
    expected = {"image": raw["hidden_size"]} | ({"video": raw["hidden_size"]} if video else {})
    assert predict_widths(raw) == expected


def test_a_config_without_a_version_is_2_5_images_only():
    raw = tiny_config("minicpmv")
    del raw["version"]
    assert predict_widths(raw) == {"image": raw["hidden_size"]}


def test_a_version_the_engine_has_no_class_for_is_refused():
    with pytest.raises(ConfigError, match="version 3.0 has no engine class"):
        resolve_spec({**tiny_config("minicpmv"), "version": 3.0})


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("minicpmv"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("minicpmv")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.hidden_size == raw["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "qwen2"
