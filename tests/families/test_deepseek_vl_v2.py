"""DeepSeek-VL2 / -OCR / -OCR-2 (original schema): engine only; images ship projector_config.n_embed."""

import pytest

import ecwidth
from ecwidth.engines import registry, releases
from ecwidth.engines.releases import VLLM_0_32
from ecwidth.errors import UnmeasurableError
from ecwidth.families.adapter import adapter_for
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config

ARCHITECTURES = ["DeepseekVLV2ForCausalLM", "DeepseekOCRForCausalLM", "DeepseekOCR2ForCausalLM"]


@pytest.mark.parametrize("architecture", ARCHITECTURES)
def test_every_class_ships_the_projectors_n_embed(architecture):
    raw = {**tiny_config("deepseek_vl_v2"), "architectures": [architecture]}
    assert predict_widths(raw) == {"image": raw["projector_config"]["n_embed"]}
    assert raw["projector_config"]["n_embed"] not in (
        raw["projector_config"]["input_dim"],
        raw["vision_config"]["width"],
        raw["language_config"]["hidden_size"],
    )


@pytest.mark.parametrize("architecture", ARCHITECTURES)
def test_the_engine_picks_the_class_the_config_names(architecture):
    raw = {**tiny_config("deepseek_vl_v2"), "architectures": [architecture]}
    config = resolve_spec(raw).config
    assert adapter_for("deepseek_vl_v2").check_served(config, VLLM_0_32).classes == (architecture,)
    default = registry.for_model_type(releases.release(VLLM_0_32), "deepseek_vl_v2")
    assert default.architecture == "DeepseekVLV2ForCausalLM"  # a config naming no class gets the config default


def test_the_width_follows_n_embed_and_its_default_stands_in_where_absent():
    raw = tiny_config("deepseek_vl_v2")
    raw["projector_config"]["n_embed"] = 56
    assert predict_widths(raw) == {"image": 56}
    del raw["projector_config"]["n_embed"]
    assert predict_widths(raw) == {"image": 2048}  # MlpProjectorConfig's default


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("deepseek_vl_v2"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = {**tiny_config("deepseek_vl_v2"), "auto_map": {"AutoModel": "modeling_deepseekocr.DeepseekOCRForCausalLM"}}
    spec = resolve_spec(raw)
    assert spec.config.projector_config.n_embed == raw["projector_config"]["n_embed"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "deepseek_v2"
