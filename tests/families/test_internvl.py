"""InternVL at tiny scale: InternViT tiles pixel-shuffled and projected, images and videos at the text width."""

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
TOKENS_PER_TILE = (TILE // 14) ** 2 // 4  # image_seq_length, downsample_ratio 0.5
CONTEXT = 64  # the text model's max_position_embeddings


def tiny_config(text_hidden: int = TEXT_HIDDEN) -> dict:
    return {
        "model_type": "internvl",
        "downsample_ratio": 0.5,
        "vision_config": {
            "model_type": "internvl_vision",
            "hidden_size": VISION_HIDDEN,
            "intermediate_size": 64,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "image_size": [TILE, TILE],
            "patch_size": [14, 14],
        },
        "text_config": {
            "model_type": "qwen2",
            "hidden_size": text_hidden,
            "intermediate_size": 64,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "num_key_value_heads": 1,
            "max_position_embeddings": CONTEXT,
            "vocab_size": 300,
        },
    }


@pytest.fixture(scope="module")
def adapter():
    return adapter_for("internvl")


@pytest.fixture(scope="module")
def model(adapter):
    return build_on_cpu(tiny_config())


@pytest.mark.parametrize("text_hidden", [TEXT_HIDDEN, 80])
def test_images_and_videos_ship_at_the_text_hidden_size(text_hidden):
    result = ecwidth.measure(tiny_config(text_hidden), device="cpu")
    assert result.widths == {"image": text_hidden, "video": text_hidden}  # the projector's second linear
    assert result.predicted == result.widths


def test_width_is_neither_the_vit_width_nor_the_shuffled_width():
    width = ecwidth.measure(tiny_config(), device="cpu").widths["image"]
    assert width not in (VISION_HIDDEN, VISION_HIDDEN * 4)


@pytest.mark.parametrize("modality, tiles", [("image", 12 + 1), ("video", CONTEXT // TOKENS_PER_TILE)])
def test_profile_item_flattens_all_tiles_at_the_same_width(adapter, model, modality, tiles):
    with torch.inference_mode():
        minimal = adapter.encode(model, modality, adapter.dummy_item(model, modality, "minimal"))
        profile = adapter.encode(model, modality, adapter.dummy_item(model, modality, "profile"))
    assert minimal.shape == (1, TEXT_HIDDEN)  # one tile of one pixel-shuffle window
    assert profile.shape == (tiles * TOKENS_PER_TILE, TEXT_HIDDEN)


def test_profile_item_is_capped_in_whole_tiles(adapter, model):
    item = adapter.dummy_item(model, "image", "profile", max_tokens=2 * TOKENS_PER_TILE)
    assert item["pixel_values"].shape == (2, 3, TILE, TILE)


@pytest.mark.parametrize(
    "height, width, tiles",
    [
        (56, 56, 1),  # one tile: no thumbnail
        (112, 112, 2 * 2 + 1),  # square: more tiles win the tie while the image fills over half of them
        (56, 168, 3 + 1),  # the 3:1 canvas, plus the thumbnail
        (1000, 1000, 3 * 3 + 1),  # 4 x 4 would exceed 12 tiles
    ],
)
def test_image_tokens_follow_the_default_processor(adapter, height, width, tiles):
    config = resolve_spec(tiny_config()).config
    assert adapter.embed_tokens(config, ItemSize("image", height=height, width=width)) == tiles * TOKENS_PER_TILE
    assert adapter.profile_tokens(config, "image") == (12 + 1) * TOKENS_PER_TILE


def test_video_tokens_are_one_tile_per_frame(adapter):
    config = resolve_spec(tiny_config()).config
    assert adapter.embed_tokens(config, ItemSize("video", height=448, width=448, frames=8)) == 8 * TOKENS_PER_TILE
    assert adapter.profile_tokens(config, "video") == CONTEXT


@pytest.mark.parametrize("field", ["downsample_ratio", "text_config.hidden_size"])
def test_missing_required_field_is_a_config_error(field):
    raw = tiny_config()
    *parents, leaf = field.split(".")
    section = raw
    for part in parents:
        section = section[part]
    del section[leaf]
    with pytest.raises(ConfigError, match=field):
        ecwidth.measure(raw, device="cpu")
