"""Alpamayo 2 Super: transformers' Qwen3-VL tower built from the nested ``vlm_config``, images only, DeepStack packed."""

import pytest

import ecwidth
from ecwidth.engines.releases import SGLANG_0_5_23, VLLM_0_32
from ecwidth.errors import NotServedError
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def nested_qwen3_vl(raw: dict) -> dict:
    """The Qwen3-VL config the checkpoint wraps, as a config of its own."""
    return {**raw["vlm_config"], "model_type": "qwen3_vl"}


def test_images_ship_the_merger_output_and_each_deepstack_level():
    raw = tiny_config("alpamayo2_super")
    vision = raw["vlm_config"]["vision_config"]
    assert vision["deepstack_visual_indexes"]
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {"image": vision["out_hidden_size"] * (1 + len(vision["deepstack_visual_indexes"]))}
    assert result.predicted == result.widths
    qwen = ecwidth.measure(nested_qwen3_vl(raw), device="cpu")
    assert result.widths["image"] == qwen.widths["image"]  # the wrapped model's tower, as it ships alone
    assert "video" in qwen.widths  # Qwen3-VL takes video; the engine's Alpamayo class does not


def test_video_pruning_adds_qwen3_vls_image_channels():
    raw = tiny_config("alpamayo2_super")
    pruned = ecwidth.measure(raw, device="cpu", video_pruning_rate=0.5).widths
    qwen = ecwidth.measure(nested_qwen3_vl(raw), device="cpu", video_pruning_rate=0.5).widths
    assert pruned == {"image": qwen["image"]}
    assert predict_widths(raw, video_pruning_rate=0.5) == pruned


def test_the_profile_image_fills_the_configs_pixel_budget():
    raw = tiny_config("alpamayo2_super")
    adapter = adapter_for("alpamayo2_super")
    vision = raw["vlm_config"]["vision_config"]
    unit = vision["patch_size"] * vision["spatial_merge_size"]
    assert adapter.profile_tokens(resolve_spec(raw).config, "image") == raw["max_pixels"] // unit**2
    assert adapter.embed_tokens(resolve_spec(raw).config, ItemSize("image", 8 * unit, 8 * unit)) == 8 * 8
    unset = {key: value for key, value in raw.items() if key not in ("min_pixels", "max_pixels")}
    assert adapter.profile_tokens(resolve_spec(unset).config, "image") == 196608 // unit**2  # the engine's default
    nulled = {**raw, "min_pixels": None, "max_pixels": None}  # the checkpoint's processor, Qwen3-VL's
    qwen = resolve_spec(nested_qwen3_vl(raw)).config
    expected = adapter_for("qwen3_vl").profile_tokens(qwen, "image")
    assert adapter.profile_tokens(resolve_spec(nulled).config, "image") == expected


@pytest.mark.parametrize("release", [VLLM_0_32, SGLANG_0_5_23])
def test_a_release_that_does_not_serve_it_refuses_to_predict(release):
    with pytest.raises(NotServedError, match="does not serve"):
        predict_widths(tiny_config("alpamayo2_super"), engine=release)
