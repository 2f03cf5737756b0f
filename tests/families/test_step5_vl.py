"""Step5-VL: engine only; the width is predicted from the engine's projector, the text hidden size, never measured."""

import pytest

import ecwidth
from ecwidth.engines.releases import VLLM_0_32
from ecwidth.errors import NotServedError, UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_are_predicted_at_the_text_hidden_size():
    raw = tiny_config("step5_vl")
    assert predict_widths(raw) == {"image": raw["text_config"]["hidden_size"]}
    assert raw["text_config"]["hidden_size"] != raw["vision_config"]["width"] * 4  # the projector's input


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("step5_vl"), device="cpu")


def test_the_config_is_read_as_data():
    raw = tiny_config("step5_vl")
    spec = resolve_spec(raw)
    assert spec.config.text_config.hidden_size == raw["text_config"]["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "step3p7"


def test_vllm_0_32_does_not_serve_it():
    with pytest.raises(NotServedError, match="Step5ForConditionalGeneration"):
        predict_widths(tiny_config("step5_vl"), engine=VLLM_0_32)
