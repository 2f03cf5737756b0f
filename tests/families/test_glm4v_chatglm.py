"""GLM-4V on ChatGLM: engine only; EVA2CLIPModel's rows (boi and eoi included), the top-level hidden_size."""

import pytest

import ecwidth
from ecwidth.errors import ConfigError, NotServedError, UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_image_is_the_chatglm_hidden_size_not_the_towers_or_the_glus():
    raw = tiny_config("chatglm")
    assert predict_widths(raw) == {"image": raw["hidden_size"]}
    assert raw["hidden_size"] not in (raw["vision_config"]["hidden_size"], raw["ffn_hidden_size"])


def test_the_width_follows_hidden_size_and_an_absent_one_is_the_config_class_default():
    raw = tiny_config("chatglm")
    raw["hidden_size"] = 72
    assert predict_widths(raw) == {"image": 72}
    del raw["hidden_size"]
    assert predict_widths(raw) == {"image": 4096}  # ChatGLMConfig's default


@pytest.mark.parametrize("architecture", ["ChatGLMModel", "ChatGLMForConditionalGeneration"])
def test_the_published_text_architectures_are_not_served_and_say_how_to_get_the_vision_class(architecture):
    raw = {**tiny_config("chatglm"), "architectures": [architecture]}
    with pytest.raises(NotServedError, match="GLM4VForCausalLM"):
        predict_widths(raw)


def test_a_text_only_chatglm_config_is_refused():
    raw = tiny_config("chatglm")
    del raw["vision_config"]
    with pytest.raises(ConfigError, match="vision_config"):
        resolve_spec(raw)


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("chatglm"), device="cpu")


def test_the_published_auto_map_is_read_without_running_code():
    raw = tiny_config("chatglm")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.vision_config.hidden_size == raw["vision_config"]["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "glm4v"
