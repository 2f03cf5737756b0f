"""dots.ocr: engine only; the vision PatchMerger's width, sliced to the LM's hidden_size, predicted."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def expected_width(raw: dict) -> int:
    """``PatchMerger`` output (``vision_config.hidden_size``, default 1536), cut to ``[:, :hidden_size]``."""
    return min(raw.get("vision_config", {}).get("hidden_size", 1536), raw["hidden_size"])


def test_a_merger_narrower_than_the_lm_ships_its_own_width():
    raw = tiny_config("dots_ocr")
    vision = raw["vision_config"]
    assert vision["hidden_size"] < raw["hidden_size"] and vision["embed_dim"] != vision["hidden_size"]
    assert predict_widths(raw) == {"image": vision["hidden_size"]} == {"image": expected_width(raw)}


def test_a_merger_wider_than_the_lm_is_cut_to_the_lm_width():
    raw = tiny_config("dots_ocr")
    raw["vision_config"]["hidden_size"] = raw["hidden_size"] + 16
    assert predict_widths(raw) == {"image": raw["hidden_size"]} == {"image": expected_width(raw)}


def test_an_absent_merger_width_is_the_config_class_default():
    raw = tiny_config("dots_ocr")
    del raw["vision_config"]["hidden_size"]
    raw["hidden_size"] = 2048
    assert predict_widths(raw) == {"image": 1536} == {"image": expected_width(raw)}
    del raw["vision_config"]
    assert predict_widths(raw) == {"image": 1536}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("dots_ocr"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("dots_ocr")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.vision_config.hidden_size == raw["vision_config"]["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "qwen2"
