"""BAGEL: engine only; the connector's output plus position embeddings, the Qwen2 width; understanding only."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_image_is_the_llm_hidden_size_not_the_vits():
    raw = tiny_config("bagel")
    assert predict_widths(raw) == {"image": raw["llm_config"]["hidden_size"]}
    assert raw["llm_config"]["hidden_size"] not in (raw["vit_config"]["hidden_size"], raw["vae_config"]["z_channels"])


def test_the_width_follows_the_llm_and_an_absent_one_is_qwen2s_default():
    raw = tiny_config("bagel")
    raw["llm_config"]["hidden_size"] = 72
    assert predict_widths(raw) == {"image": 72}
    del raw["llm_config"]["hidden_size"]
    assert predict_widths(raw) == {"image": 4096}  # Qwen2Config's default


def test_without_visual_understanding_nothing_is_shipped():
    raw = {**tiny_config("bagel"), "visual_und": False}
    assert predict_widths(raw) == {}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("bagel"), device="cpu")


def test_an_auto_map_in_the_config_is_read_without_running_code():
    raw = {**tiny_config("bagel"), "auto_map": {"AutoModel": "modeling_bagel.Bagel"}}
    spec = resolve_spec(raw)
    assert spec.config.llm_config.hidden_size == raw["llm_config"]["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "qwen2"
