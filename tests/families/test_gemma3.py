"""Gemma 3 at tiny scale: SigLIP crops pooled to mm_tokens_per_image, shipped at the text width."""

import pytest
import torch

import ecwidth
from ecwidth.adapter import ItemSize, adapter_for
from ecwidth.configs import resolve_spec
from ecwidth.errors import ConfigError

from building import build_on_cpu

VISION_HIDDEN = 32
TEXT_HIDDEN = 48
MM_TOKENS = 4  # 2 x 2 pooled tokens from a 4 x 4 patch crop: pooling windows of 2 x 2 patches


def tiny_config(text_hidden: int = TEXT_HIDDEN) -> dict:
    return {
        "model_type": "gemma3",
        "mm_tokens_per_image": MM_TOKENS,
        "vision_config": {
            "model_type": "siglip_vision_model",
            "hidden_size": VISION_HIDDEN,
            "intermediate_size": 64,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "image_size": 56,
            "patch_size": 14,
            "vision_use_head": False,
        },
        "text_config": {
            "model_type": "gemma3_text",
            "hidden_size": text_hidden,
            "intermediate_size": 64,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "num_key_value_heads": 1,
            "head_dim": 16,
            "vocab_size": 300,
        },
    }


@pytest.fixture(scope="module")
def adapter():
    return adapter_for("gemma3")


@pytest.fixture(scope="module")
def model(adapter):
    return build_on_cpu(tiny_config())


@pytest.mark.parametrize("text_hidden", [TEXT_HIDDEN, 80])
def test_image_ships_at_the_text_hidden_size(text_hidden):
    result = ecwidth.measure(tiny_config(text_hidden), device="cpu")
    assert result.widths == {"image": text_hidden}  # the projector's matmul maps to the text width
    assert result.predicted == result.widths


def test_width_is_not_the_siglip_width():
    assert ecwidth.measure(tiny_config(), device="cpu").widths["image"] != VISION_HIDDEN


def test_minimal_item_is_one_pooling_window_and_profile_one_full_crop(adapter, model):
    with torch.inference_mode():
        minimal = adapter.encode(model, "image", adapter.dummy_item(model, "image", "minimal"))
        profile = adapter.encode(model, "image", adapter.dummy_item(model, "image", "profile"))
    assert minimal.shape == (1, TEXT_HIDDEN)
    assert profile.shape == (MM_TOKENS, TEXT_HIDDEN)


def test_minimal_item_leaves_the_projector_grid_as_built(adapter, model):
    with torch.inference_mode():
        adapter.encode(model, "image", adapter.dummy_item(model, "image", "minimal"))
    assert model.multi_modal_projector.patches_per_image == 56 // 14


@pytest.mark.parametrize("height, width", [(448, 448), (1024, 1024), (300, 1200)])
def test_every_image_is_one_crop_with_pan_and_scan_off(adapter, height, width):
    config = resolve_spec(tiny_config()).config
    assert adapter.embed_tokens(config, ItemSize("image", height=height, width=width)) == MM_TOKENS
    assert adapter.profile_tokens(config, "image") == MM_TOKENS


@pytest.mark.parametrize("field", ["mm_tokens_per_image", "text_config.hidden_size"])
def test_missing_required_field_is_a_config_error(field):
    raw = tiny_config()
    *parents, leaf = field.split(".")
    section = raw
    for part in parents:
        section = section[part]
    del section[leaf]
    with pytest.raises(ConfigError, match=field):
        ecwidth.measure(raw, device="cpu")
