"""Cohere Compass at tiny scale: main features plus every DeepStack level, on the last dim."""

import pytest

import ecwidth
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.building import built, encoded
from tests.tiny_configs import tiny_config


def with_deepstack(levels: list[int]) -> dict:
    """The tiny config with DeepStack after the vision blocks ``levels``."""
    cfg = tiny_config("cohere_compass")
    cfg["vision_config"]["deepstack_visual_indexes"] = levels
    return cfg


def shipped_width(cfg: dict) -> int:
    """vLLM's Cohere Compass tower: the merger output, then one merger output per DeepStack level."""
    vision = cfg["vision_config"]
    return vision["out_hidden_size"] * (1 + len(vision["deepstack_visual_indexes"]))


@pytest.mark.parametrize("levels", [[], [1], [0, 2]])
def test_image_ships_main_features_and_every_deepstack_level(levels):
    cfg = with_deepstack(levels)
    result = ecwidth.measure(cfg, device="cpu")
    assert result.widths == result.predicted == {"image": shipped_width(cfg)}
    assert result.deepstack_levels == {"image": len(levels)}


def test_minimal_item_is_one_merged_patch_and_profile_is_capped_in_tokens():
    cfg = tiny_config("cohere_compass")
    adapter, model = built(cfg)
    minimal = encoded(adapter, model, "image", "minimal")
    profile = encoded(adapter, model, "image", "profile", max_tokens=16)
    assert minimal.shape == (1, shipped_width(cfg))  # one merged 2x2 patch
    assert profile.shape == (16, shipped_width(cfg))


def test_profile_tokens_are_those_of_the_largest_image_the_pixel_budget_allows():
    # 16777216 px at 16 px patches merged 2 x 2, 32 px a token side: a 4096 x 4096 image.
    config = resolve_spec(tiny_config("cohere_compass")).config
    assert adapter_for("cohere_compass").profile_tokens(config, "image") == (4096 // 32) ** 2


@pytest.mark.parametrize(
    "height, width, tokens",
    [
        (448, 448, 14 * 14),  # already a multiple of 32 px
        (1024, 1024, 32 * 32),
        (100, 100, 8 * 8),  # below 65536 px: scaled up to 256 x 256
    ],
)
def test_image_tokens_follow_the_published_processor(height, width, tokens):
    config = resolve_spec(tiny_config("cohere_compass")).config
    assert adapter_for("cohere_compass").embed_tokens(config, ItemSize("image", height=height, width=width)) == tokens


def test_video_is_not_served_as_vllm_registers_images_only():
    with pytest.raises(ValueError, match="'video'"):
        ecwidth.measure(tiny_config("cohere_compass"), ["video"], device="cpu")
