"""Phi-3(.5)-vision: engine only; the HD embedding's projector ships n_embd, else hidden_size; never measured."""

import pytest

import ecwidth
from ecwidth.errors import ConfigError, UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_the_lm_hidden_size_not_the_merged_patch_width():
    raw = tiny_config("phi3_v")
    assert predict_widths(raw) == {"image": raw["hidden_size"]}
    assert raw["hidden_size"] not in (raw["img_processor"]["image_dim_out"], raw["img_processor"]["image_dim_out"] * 4)


def test_n_embd_where_the_config_has_it_wins():
    raw = {**tiny_config("phi3_v"), "n_embd": 56}
    assert predict_widths(raw) == {"image": raw["n_embd"]}


@pytest.mark.parametrize("key", ["use_hd_transform", "with_learnable_separator"])
def test_a_layout_the_engine_asserts_against_is_refused(key):
    raw = tiny_config("phi3_v")
    raw["embd_layer"][key] = False
    with pytest.raises(ConfigError, match=f"embd_layer.{key}"):
        resolve_spec(raw)


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("phi3_v"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("phi3_v")
    spec = resolve_spec(raw)
    assert spec.config.img_processor.image_dim_out == raw["img_processor"]["image_dim_out"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "phi3"
