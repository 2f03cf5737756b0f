"""Cohere Compass at tiny scale: main features plus every DeepStack level, on the last dim."""

import pytest
import torch

import ecwidth
from ecwidth.adapter import ItemSize, adapter_for
from ecwidth.configs import resolve_spec
from ecwidth.errors import ConfigError

from building import build_on_cpu

OUT_HIDDEN = 48  # the vision merger's output, per level
TEXT_HIDDEN = 32


def tiny_config(deepstack: tuple[int, ...] = (0, 2)) -> dict:
    layer_types = ["sliding_attention", "full_attention"]
    return {
        "model_type": "cohere_compass",
        "text_config": {
            "hidden_size": TEXT_HIDDEN,
            "intermediate_size": 64,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "vocab_size": 255040,
            "layer_types": layer_types,
            "rope_parameters": {
                "sliding_attention": {"rope_type": "default", "rope_theta": 10000, "mrope_section": [1, 1, 2]},
                "full_attention": None,
            },
        },
        "vision_config": {
            "depth": 3,
            "hidden_size": 32,
            "intermediate_size": 64,
            "num_heads": 4,
            "patch_size": 16,
            "spatial_merge_size": 2,
            "out_hidden_size": OUT_HIDDEN,
            "num_position_embeddings": 64,
            "deepstack_visual_indexes": list(deepstack),
        },
    }


@pytest.fixture(scope="module")
def adapter():
    return adapter_for("cohere_compass")


@pytest.fixture(scope="module")
def model(adapter):
    return build_on_cpu(tiny_config())


@pytest.mark.parametrize("deepstack", [[], [1], [0, 2]])
def test_image_ships_main_features_and_every_deepstack_level(deepstack):
    result = ecwidth.measure(tiny_config(deepstack), device="cpu")
    assert result.widths == {"image": OUT_HIDDEN * (1 + len(deepstack))}
    assert result.predicted == result.widths
    assert result.deepstack_levels == {"image": len(deepstack)}


def test_width_is_neither_out_hidden_size_nor_lm_hidden_size():
    width = ecwidth.measure(tiny_config([0, 2]), device="cpu").widths["image"]
    assert width == 3 * OUT_HIDDEN
    assert width not in (OUT_HIDDEN, TEXT_HIDDEN)


def test_profile_item_has_more_tokens_and_the_same_width(adapter, model):
    with torch.inference_mode():
        minimal = adapter.encode(model, "image", adapter.dummy_item(model, "image", "minimal"))
        profile = adapter.encode(model, "image", adapter.dummy_item(model, "image", "profile", max_tokens=16))
    assert minimal.shape == (1, 3 * OUT_HIDDEN)  # one merged 2x2 patch
    assert profile.shape == (16, 3 * OUT_HIDDEN)


def test_profile_tokens_are_those_of_the_largest_image_the_pixel_budget_allows(adapter):
    # 16777216 px at 32 px per token side: a 4096 x 4096 image.
    assert adapter.profile_tokens(resolve_spec(tiny_config()).config, "image") == (4096 // 32) ** 2


@pytest.mark.parametrize(
    "height, width, tokens",
    [
        (448, 448, 14 * 14),  # already a multiple of 32 px
        (1024, 1024, 32 * 32),
        (100, 100, 8 * 8),  # below 65536 px: scaled up to 256 x 256
    ],
)
def test_image_tokens_follow_the_published_processor(adapter, height, width, tokens):
    config = resolve_spec(tiny_config()).config
    assert adapter.embed_tokens(config, ItemSize("image", height=height, width=width)) == tokens


def test_video_is_not_served_as_vllm_registers_images_only():
    with pytest.raises(ValueError, match="'video'"):
        ecwidth.measure(tiny_config(), ["video"], device="cpu")


@pytest.mark.parametrize("field", ["out_hidden_size", "deepstack_visual_indexes"])
def test_missing_required_field_is_a_config_error(field):
    raw = tiny_config()
    del raw["vision_config"][field]
    with pytest.raises(ConfigError, match=field):
        ecwidth.measure(raw, device="cpu")
