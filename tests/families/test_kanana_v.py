"""Kanana-1.5-V: engine only; the C-Abstractor's readout ships projector_config.output_hidden_size."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_the_readouts_output_hidden_size():
    raw = tiny_config("kanana-1.5-v")
    projector = raw["projector_config"]
    assert predict_widths(raw) == {"image": projector["output_hidden_size"]}
    assert projector["output_hidden_size"] not in (
        projector["hidden_size"],
        projector["encoder_hidden_size"],
        raw["text_config"]["hidden_size"],
    )


def test_the_width_follows_output_hidden_size():
    raw = tiny_config("kanana-1.5-v")
    raw["projector_config"]["output_hidden_size"] = 56
    assert predict_widths(raw) == {"image": 56}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("kanana-1.5-v"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("kanana-1.5-v")
    spec = resolve_spec(raw)
    assert spec.config.projector_config.output_hidden_size == raw["projector_config"]["output_hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "llama"
