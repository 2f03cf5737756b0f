"""Idefics3 and SmolVLM at tiny scale: tiles pixel-shuffled and projected, flattened at the text width."""

import pytest
import torch

import ecwidth
from ecwidth.adapter import ItemSize, adapter_for
from ecwidth.configs import resolve_spec
from ecwidth.errors import ConfigError

from building import build_on_cpu

VISION_HIDDEN = 32
TEXT_HIDDEN = 48
TILE = 56  # 4 x 4 patches of 14 px
SCALE = 2
TOKENS_PER_TILE = (TILE // 14) ** 2 // SCALE**2  # image_seq_len


def tiny_config(model_type: str = "idefics3", text_hidden: int = TEXT_HIDDEN) -> dict:
    return {
        "model_type": model_type,
        "scale_factor": SCALE,
        "vision_config": {
            "hidden_size": VISION_HIDDEN,
            "intermediate_size": 64,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "image_size": TILE,
            "patch_size": 14,
        },
        "text_config": {
            "model_type": "llama",
            "hidden_size": text_hidden,
            "intermediate_size": 64,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "num_key_value_heads": 1,
            "vocab_size": 300,
        },
    }


@pytest.fixture(scope="module")
def adapter():
    return adapter_for("idefics3")


@pytest.fixture(scope="module")
def model(adapter):
    return build_on_cpu(tiny_config())


@pytest.mark.parametrize("model_type", ["idefics3", "smolvlm"])
@pytest.mark.parametrize("text_hidden", [TEXT_HIDDEN, 80])
def test_image_ships_at_the_text_hidden_size(model_type, text_hidden):
    result = ecwidth.measure(tiny_config(model_type, text_hidden), device="cpu")
    assert result.widths == {"image": text_hidden}  # the connector's linear maps to the text width
    assert result.predicted == result.widths


def test_width_is_neither_the_siglip_width_nor_the_shuffled_width():
    width = ecwidth.measure(tiny_config(), device="cpu").widths["image"]
    assert width not in (VISION_HIDDEN, VISION_HIDDEN * SCALE**2)


def test_profile_item_flattens_every_tile_at_the_same_width(adapter, model):
    with torch.inference_mode():
        minimal = adapter.encode(model, "image", adapter.dummy_item(model, "image", "minimal"))
        profile = adapter.encode(model, "image", adapter.dummy_item(model, "image", "profile"))
    assert minimal.shape == (1, TEXT_HIDDEN)  # one tile of one pixel-shuffle window
    assert profile.shape == ((4 * 4 + 1) * TOKENS_PER_TILE, TEXT_HIDDEN)  # a 4 x 4 split plus the global tile


def test_profile_item_is_capped_in_whole_tiles(adapter, model):
    item = adapter.dummy_item(model, "image", "profile", max_tokens=3 * TOKENS_PER_TILE + 1)
    assert item["pixel_values"].shape == (1, 3, 3, TILE, TILE)
    assert bool(item["pixel_values"].ne(0).any(dim=(2, 3, 4)).all())  # no tile is all zeros, i.e. padding


@pytest.mark.parametrize(
    "height, width, tiles",
    [
        (448, 448, 4 * 4 + 1),  # longest edge scaled to 4 tiles, even when that upscales
        (1024, 1024, 4 * 4 + 1),
        (500, 1000, 2 * 4 + 1),  # 224 x 112 after scaling: 2 rows of 4
        (1000, 50, 4 * 1 + 1),  # a thin strip still splits along its long edge
    ],
)
def test_image_tokens_follow_the_default_processor(adapter, height, width, tiles):
    config = resolve_spec(tiny_config()).config
    assert adapter.embed_tokens(config, ItemSize("image", height=height, width=width)) == tiles * TOKENS_PER_TILE
    assert adapter.profile_tokens(config, "image") == (4 * 4 + 1) * TOKENS_PER_TILE


@pytest.mark.parametrize("field", ["scale_factor", "text_config"])
def test_missing_required_field_is_a_config_error(field):
    raw = tiny_config()
    del raw[field]
    with pytest.raises(ConfigError, match=field):
        ecwidth.measure(raw, device="cpu")
