"""Step3-VL and Step3-VL-10B: engine only; vit_large_projector's output, text_config.hidden_size, predicted."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_the_text_hidden_size():
    raw = tiny_config("step3_vl")
    vision = raw["vision_config"]
    assert predict_widths(raw) == {"image": raw["text_config"]["hidden_size"]}
    out = vision["output_hidden_size"]
    assert raw["text_config"]["hidden_size"] not in (vision["hidden_size"], out, out * 2)


def test_the_width_follows_the_text_hidden_size():
    raw = tiny_config("step3_vl")
    raw["text_config"]["hidden_size"] = 72
    assert predict_widths(raw) == {"image": 72}


def test_step_vl_10b_projects_its_perception_encoder_to_the_text_hidden_size_too():
    raw = tiny_config("step3_vl")
    raw["architectures"] = ["StepVLForConditionalGeneration"]
    raw["vision_config"] = {"width": 24, "layers": 1, "heads": 2, "patch_size": 14, "image_size": 56}
    assert predict_widths(raw) == {"image": raw["text_config"]["hidden_size"]}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("step3_vl"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("step3_vl")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.text_config.hidden_size == raw["text_config"]["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "step3p7"
