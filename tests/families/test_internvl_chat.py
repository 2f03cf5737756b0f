"""InternVL's remote-code chat models and kin: engine only, every item predicted at the text model's hidden size."""

import pytest

import ecwidth
from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.errors import ConfigError, UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config

IMAGES_ONLY = ["h2ovl_chat", "NVLM_D", "skywork_chat", "Llama_Nemotron_Nano_VL"]
ALL = ["internvl_chat", *IMAGES_ONLY, "eagle_2_5_vl", "interns1"]


def text(raw: dict) -> dict:
    return raw.get("text_config") or raw["llm_config"]


def test_internvl_chat_ships_images_and_qwen_videos_at_the_llm_config_hidden_size():
    raw = tiny_config("internvl_chat")
    width = raw["llm_config"]["hidden_size"]
    assert width != raw["vision_config"]["hidden_size"] * int(1 / raw["downsample_ratio"]) ** 2
    assert predict_widths(raw) == {"image": width, "video": width}


@pytest.mark.parametrize(("lm", "video"), [("qwen2", True), ("gpt_oss", True), ("llama", False), ("internlm2", False)])
def test_internvl_chat_takes_videos_only_where_its_text_model_has_a_video_token(lm, video):
    raw = tiny_config("internvl_chat")
    raw["llm_config"]["model_type"] = lm
    width = raw["llm_config"]["hidden_size"]
    assert predict_widths(raw) == {"image": width, **({"video": width} if video else {})}


@pytest.mark.parametrize("model_type", IMAGES_ONLY)
def test_the_image_only_chat_models_ship_the_llm_config_hidden_size(model_type):
    raw = tiny_config(model_type)
    assert predict_widths(raw) == {"image": raw["llm_config"]["hidden_size"]}
    raw["llm_config"]["hidden_size"] = 56
    assert predict_widths(raw) == {"image": 56}


def test_nvlm_d_ends_its_mlp1_at_the_hidden_size_not_the_intermediate_size():
    raw = tiny_config("NVLM_D")
    assert (
        predict_widths(raw)
        == {"image": raw["llm_config"]["hidden_size"]}
        != {"image": raw["llm_config"]["intermediate_size"]}
    )


def test_nemotron_vl_ships_the_text_width_not_its_projector_or_vit_width():
    raw = tiny_config("Llama_Nemotron_Nano_VL")
    assert predict_widths(raw)["image"] == raw["llm_config"]["hidden_size"]
    assert raw["llm_config"]["hidden_size"] not in (raw["vit_hidden_size"], raw["projector_hidden_size"])


def test_eagle_2_5_and_intern_s1_read_text_config():
    eagle, interns1 = tiny_config("eagle_2_5_vl"), tiny_config("interns1")
    assert predict_widths(eagle) == {"image": eagle["text_config"]["hidden_size"]}
    assert predict_widths(interns1) == dict.fromkeys(("image", "video"), interns1["text_config"]["hidden_size"])


def test_a_config_saved_with_text_config_reads_the_same_as_the_published_llm_config():
    raw = tiny_config("h2ovl_chat")
    raw["text_config"] = raw.pop("llm_config")
    assert predict_widths(raw) == {"image": raw["text_config"]["hidden_size"]}


def test_a_missing_text_width_is_named():
    raw = tiny_config("skywork_chat")
    del raw["llm_config"]["hidden_size"]
    with pytest.raises(ConfigError, match=r"llm_config\.hidden_size"):
        resolve_spec(raw)


@pytest.mark.parametrize("model_type", ALL)
def test_measure_refuses_and_says_why(model_type):
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config(model_type), device="cpu")


@pytest.mark.parametrize("model_type", ALL)
def test_the_published_auto_map_is_read_without_running_code(model_type):
    raw = tiny_config(model_type)
    assert raw["auto_map"]
    spec = resolve_spec(raw)  # trust_remote_code stays off: nothing is imported, the JSON is read
    assert spec.config.model_type == model_type
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "internvl"


@pytest.mark.parametrize("model_type", ALL)
def test_both_vllm_releases_serve_it_at_the_same_width(model_type):
    raw = tiny_config(model_type)
    assert predict_widths(raw, engine=VLLM_0_32) == predict_widths(raw, engine=VLLM_0_33)
