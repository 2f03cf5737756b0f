"""DeepSeek-V4 vision: engine only, filed by architecture; the aligner ships the top-level hidden_size."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.families.adapter import family_key
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_a_text_model_type_is_filed_by_the_wrapper_architecture():
    raw = tiny_config("deepseek_v4_vision")
    assert raw["model_type"] == "deepseek_v4"
    assert family_key(raw) == "deepseek_v4_vision"


def test_images_ship_the_lm_hidden_size_not_the_vits_or_the_unfolds():
    raw = tiny_config("deepseek_v4_vision")
    assert predict_widths(raw) == {"image": raw["hidden_size"]}
    unfolded = raw["vision_dim"] * raw["vision_downsample_ratio"] ** 2
    assert raw["hidden_size"] not in (raw["vision_dim"], unfolded)


def test_the_width_follows_hidden_size_and_no_tower_ships_nothing():
    raw = {**tiny_config("deepseek_v4_vision"), "hidden_size": 64}
    assert predict_widths(raw) == {"image": 64}
    assert predict_widths({**raw, "vision_n_layers": 0}) == {}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("deepseek_v4_vision"), device="cpu")


def test_an_auto_map_is_read_without_running_code():
    raw = {**tiny_config("deepseek_v4_vision"), "auto_map": {"AutoConfig": "configuration_deepseek.DeepseekV4Config"}}
    spec = resolve_spec(raw)
    assert spec.config.vision_dim == raw["vision_dim"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "deepseek_v3"


@pytest.mark.parametrize("layers", [2, 0])
def test_a_published_config_naming_the_text_architecture_is_the_vision_familys_only_with_vision_layers(layers):
    # As published: DeepseekV4ForCausalLM, which vLLM rewrites to the vision wrapper when vision_n_layers > 0.
    raw = {**tiny_config("deepseek_v4_vision"), "architectures": ["DeepseekV4ForCausalLM"], "vision_n_layers": layers}
    spec = resolve_spec(raw)
    if layers:
        assert spec.model_type == "deepseek_v4_vision" and predict_widths(raw) == {"image": raw["hidden_size"]}
    else:
        assert spec.model_type == "deepseek_v4" and predict_widths(raw) == {}  # a text model: nothing ships
