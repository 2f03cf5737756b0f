"""Mistral 3 at tiny scale: Pixtral patches merged 2 x 2 and projected to the text width."""

import pytest
import torch

import ecwidth
from ecwidth.adapter import ItemSize, adapter_for
from ecwidth.configs import resolve_spec
from ecwidth.errors import ConfigError

from building import build_on_cpu

VISION_HIDDEN = 32
TEXT_HIDDEN = 48
LONGEST_EDGE = 112  # 8 x 8 patches of 14 px, 4 x 4 merged patches of 28 px


def tiny_config(text_hidden: int = TEXT_HIDDEN) -> dict:
    return {
        "model_type": "mistral3",
        "spatial_merge_size": 2,
        "vision_config": {
            "model_type": "pixtral",
            "hidden_size": VISION_HIDDEN,
            "intermediate_size": 64,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "head_dim": 16,
            "image_size": LONGEST_EDGE,
            "patch_size": 14,
        },
        "text_config": {
            "model_type": "mistral",
            "hidden_size": text_hidden,
            "intermediate_size": 64,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "num_key_value_heads": 1,
            "head_dim": 24,
            "vocab_size": 300,
        },
    }


@pytest.fixture(scope="module")
def adapter():
    return adapter_for("mistral3")


@pytest.fixture(scope="module")
def model(adapter):
    return build_on_cpu(tiny_config())


@pytest.mark.parametrize("text_hidden", [TEXT_HIDDEN, 80])
def test_image_ships_at_the_text_hidden_size(text_hidden):
    result = ecwidth.measure(tiny_config(text_hidden), device="cpu")
    assert result.widths == {"image": text_hidden}  # the projector's second linear maps to the text width
    assert result.predicted == result.widths


def test_width_is_not_the_pixtral_width():
    assert ecwidth.measure(tiny_config(), device="cpu").widths["image"] != VISION_HIDDEN


def test_profile_item_is_the_longest_edge_square_at_the_same_width(adapter, model):
    with torch.inference_mode():
        minimal = adapter.encode(model, "image", adapter.dummy_item(model, "image", "minimal"))
        profile = adapter.encode(model, "image", adapter.dummy_item(model, "image", "profile"))
        capped = adapter.encode(model, "image", adapter.dummy_item(model, "image", "profile", max_tokens=10))
        floor = adapter.encode(model, "image", adapter.dummy_item(model, "image", "profile", max_tokens=1))
    assert minimal.shape == (2, TEXT_HIDDEN)  # a 1 x 2 strip of merged patches
    assert profile.shape == ((LONGEST_EDGE // 28) ** 2, TEXT_HIDDEN)
    assert capped.shape == (3 * 3, TEXT_HIDDEN)
    assert floor.shape == minimal.shape


@pytest.mark.parametrize(
    "height, width, tokens",
    [
        (56, 84, 2 * 3),  # whole merged patches of 28 px
        (30, 30, 2 * 2),  # a partial merged patch counts as one
        (448, 224, 4 * 2),  # shrunk to the 112 px longest edge first
    ],
)
def test_image_tokens_follow_the_engine(adapter, height, width, tokens):
    config = resolve_spec(tiny_config()).config
    assert adapter.embed_tokens(config, ItemSize("image", height=height, width=width)) == tokens
    assert adapter.profile_tokens(config, "image") == (LONGEST_EDGE // 28) ** 2


@pytest.mark.parametrize("field", ["spatial_merge_size", "text_config.hidden_size"])
def test_missing_required_field_is_a_config_error(field):
    raw = tiny_config()
    *parents, leaf = field.split(".")
    section = raw
    for part in parents:
        section = section[part]
    del section[leaf]
    with pytest.raises(ConfigError, match=field):
        ecwidth.measure(raw, device="cpu")
