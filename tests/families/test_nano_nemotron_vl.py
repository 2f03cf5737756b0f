"""Nemotron Nano VL V2 and Nemotron 3 Omni as published: engine only, every modality at the text width."""

import pytest

import ecwidth
from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config

OMNI = ["NemotronH_Nano_Omni_Reasoning_V3", "NemotronH_Super_Omni_Reasoning_V3"]
ALL = ["NemotronH_Nano_VL_V2", *OMNI]


def test_nano_vl_v2_ships_images_and_videos_at_the_llm_config_hidden_size():
    raw = tiny_config("NemotronH_Nano_VL_V2")
    width = raw["llm_config"]["hidden_size"]
    assert width not in (raw["vit_hidden_size"], raw["projector_hidden_size"], raw["vision_config"]["hidden_size"])
    assert predict_widths(raw) == {"image": width, "video": width}


@pytest.mark.parametrize("model_type", OMNI)
def test_omni_ships_audio_too_at_the_text_width_not_the_projection_width(model_type):
    raw = tiny_config(model_type)
    width = raw["llm_config"]["hidden_size"]
    assert width not in (raw["sound_config"]["hidden_size"], raw["sound_config"]["projection_hidden_size"])
    assert predict_widths(raw) == dict.fromkeys(("image", "video", "audio"), width)


@pytest.mark.parametrize("model_type", ALL)
def test_the_width_follows_the_text_hidden_size(model_type):
    raw = tiny_config(model_type)
    raw["llm_config"]["hidden_size"] = 88
    assert set(predict_widths(raw).values()) == {88}


def test_audio_follows_the_sound_config():
    omni = tiny_config("NemotronH_Nano_Omni_Reasoning_V3")
    omni["sound_config"] = None
    assert set(predict_widths(omni)) == {"image", "video"}
    nano = tiny_config("NemotronH_Nano_VL_V2")
    nano["sound_config"] = tiny_config("NemotronH_Nano_Omni_Reasoning_V3")["sound_config"]
    assert predict_widths(nano)["audio"] == nano["llm_config"]["hidden_size"]


@pytest.mark.parametrize("model_type", ALL)
def test_video_pruning_is_taken_and_adds_no_channels(model_type):
    raw = tiny_config(model_type)
    assert predict_widths(raw, video_pruning_rate=0.5) == predict_widths(raw)


@pytest.mark.parametrize("model_type", ALL)
def test_both_releases_predict_the_same_widths(model_type):
    raw = tiny_config(model_type)
    assert predict_widths(raw, engine=VLLM_0_32) == predict_widths(raw, engine=VLLM_0_33)


@pytest.mark.parametrize("model_type", ALL)
def test_measure_refuses_and_says_why(model_type):
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config(model_type), device="cpu")


@pytest.mark.parametrize("model_type", ALL)
def test_the_published_auto_map_is_read_without_running_code(model_type):
    raw = tiny_config(model_type)
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.llm_config.hidden_size == raw["llm_config"]["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "nemotron_h_omni"
