"""Bailing MoE V3 VL: engine only; the projector after the patch fold ships text_config.hidden_size."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_the_text_hidden_size_not_the_published_out_hidden_size():
    raw = tiny_config("bailing_moe_v3_vl")
    vision = raw["vision_config"]
    assert predict_widths(raw) == {"image": raw["text_config"]["hidden_size"]}
    folded = vision["hidden_size"] * vision["spatial_merge_size"] ** 2
    assert raw["text_config"]["hidden_size"] not in (vision["out_hidden_size"], vision["hidden_size"], folded)


def test_the_width_follows_the_text_hidden_size():
    raw = tiny_config("bailing_moe_v3_vl")
    raw["text_config"]["hidden_size"] = 64
    assert predict_widths(raw) == {"image": 64}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("bailing_moe_v3_vl"), device="cpu")


def test_an_auto_map_is_read_without_running_code():
    raw = {**tiny_config("bailing_moe_v3_vl"), "auto_map": {"AutoConfig": "configuration_bailing.BailingVLConfig"}}
    spec = resolve_spec(raw)
    assert spec.config.text_config.hidden_size == raw["text_config"]["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "qwen3_vl"
