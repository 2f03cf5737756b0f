"""Ovis2.5 / Ovis2.6 (remote code): engine only; vte rows for images and videos, the top-level hidden_size."""

import pytest

import ecwidth
from ecwidth.engines.releases import VLLM_0_32
from ecwidth.errors import UnmeasurableError
from ecwidth.families.adapter import adapter_for
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


@pytest.mark.parametrize("model_type", ["ovis2_5", "ovis2_6"])
def test_images_and_videos_ship_the_top_level_hidden_size(model_type):
    raw = tiny_config(model_type)
    width = raw["hidden_size"]
    assert predict_widths(raw) == {"image": width, "video": width}
    assert width not in (raw["visual_vocab_size"], raw["vit_config"]["hidden_size"])


@pytest.mark.parametrize("model_type", ["ovis2_5", "ovis2_6"])
def test_the_width_follows_the_vte_width(model_type):
    raw = tiny_config(model_type)
    raw["hidden_size"] = 72
    assert predict_widths(raw) == {"image": 72, "video": 72}


def test_the_moe_architecture_is_the_same_engine_class():
    raw = {**tiny_config("ovis2_6"), "architectures": ["Ovis2_6_MoeForCausalLM"]}
    config = resolve_spec(raw).config
    assert adapter_for("ovis2_6").check_served(config, VLLM_0_32).classes == ("Ovis2_5",)
    assert predict_widths(raw) == {"image": raw["hidden_size"], "video": raw["hidden_size"]}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("ovis2_5"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("ovis2_5")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.hidden_size == raw["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "ovis2"


@pytest.mark.parametrize("architecture", ["Ovis2_6ForCausalLM", "Ovis2_6_MoeForCausalLM"])
def test_an_ovis2_6_config_is_filed_by_its_architecture_whatever_its_model_type(architecture):
    raw = {**tiny_config("ovis2_6"), "model_type": "ovis2_5", "architectures": [architecture]}
    assert resolve_spec(raw).model_type == "ovis2_6"
    assert predict_widths(raw) == {"image": raw["hidden_size"], "video": raw["hidden_size"]}
