"""Intern-S1-Pro and Intern-S2: engine only; Qwen3-VL's tower, its width predicted with DeepStack and pruning."""

import pytest

import ecwidth
from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.errors import ConfigError, NotServedError, UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config

ALL = ["interns1_pro", "intern_s2_preview", "interns2_mobius"]
INTERN_S2 = ["intern_s2_preview", "interns2_mobius"]


def packed(raw: dict) -> int:
    """The merger output, then one merger output per listed DeepStack layer."""
    vision = raw["vision_config"]
    return vision["out_hidden_size"] * (1 + len(vision.get("deepstack_visual_indexes") or []))


@pytest.mark.parametrize("model_type", ALL)
def test_images_and_videos_ship_the_deepstack_packed_merger_width(model_type):
    raw = tiny_config(model_type)
    assert predict_widths(raw) == dict.fromkeys(("image", "video"), packed(raw))
    assert packed(raw) not in (raw["text_config"]["hidden_size"], raw["vision_config"]["hidden_size"])


@pytest.mark.parametrize("levels", [[], [0], [0, 1, 2]])
@pytest.mark.parametrize("model_type", ALL)
def test_the_width_follows_the_listed_deepstack_layers(model_type, levels):
    raw = tiny_config(model_type)
    raw["vision_config"]["deepstack_visual_indexes"] = levels
    assert predict_widths(raw)["image"] == raw["vision_config"]["out_hidden_size"] * (1 + len(levels))


@pytest.mark.parametrize("model_type", INTERN_S2)
def test_intern_s2_without_a_deepstack_list_ships_the_merger_width(model_type):
    raw = tiny_config(model_type)
    raw["vision_config"].pop("deepstack_visual_indexes", None)
    assert predict_widths(raw)["image"] == raw["vision_config"]["out_hidden_size"]


def test_intern_s1_pro_needs_its_deepstack_list():
    raw = tiny_config("interns1_pro")
    del raw["vision_config"]["deepstack_visual_indexes"]
    with pytest.raises(ConfigError, match=r"vision_config\.deepstack_visual_indexes"):
        resolve_spec(raw)


def test_intern_s1_pro_with_video_pruning_adds_five_channels_to_every_item():
    raw = tiny_config("interns1_pro")
    assert predict_widths(raw, video_pruning_rate=0.5) == dict.fromkeys(("image", "video"), packed(raw) + 5)


@pytest.mark.parametrize("model_type", INTERN_S2)
def test_intern_s2_with_video_pruning_ships_images_plus_five_and_no_video(model_type):
    raw = tiny_config(model_type)
    assert predict_widths(raw, video_pruning_rate=0.5) == {"image": packed(raw) + 5}


def test_vllm_0_32_cannot_build_intern_s1_pro_and_0_33_can():
    raw = tiny_config("interns1_pro")
    with pytest.raises(NotServedError, match="self.model_config"):
        predict_widths(raw, engine=VLLM_0_32)
    assert predict_widths(raw, engine=VLLM_0_33) == dict.fromkeys(("image", "video"), packed(raw))


@pytest.mark.parametrize("model_type", INTERN_S2)
def test_both_releases_serve_intern_s2_at_the_same_width(model_type):
    raw = tiny_config(model_type)
    assert predict_widths(raw, engine=VLLM_0_32) == predict_widths(raw, engine=VLLM_0_33)


@pytest.mark.parametrize("model_type", ALL)
def test_measure_refuses_and_says_why(model_type):
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config(model_type), device="cpu", engine=VLLM_0_33)


@pytest.mark.parametrize("model_type", ALL)
def test_the_published_auto_map_is_read_without_running_code(model_type):
    raw = tiny_config(model_type)
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.vision_config.out_hidden_size == raw["vision_config"]["out_hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "qwen3_vl"
