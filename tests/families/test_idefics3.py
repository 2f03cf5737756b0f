"""Idefics3 and SmolVLM at tiny scale: tiles pixel-shuffled and projected, flattened at the text width."""

import pytest

import ecwidth
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.building import built, encoded
from tests.tiny_configs import tiny_config


@pytest.fixture(scope="module")
def family():
    """The adapter and the model built from the tiny config."""
    return built(tiny_config("idefics3"))


def tokens_per_tile(cfg: dict) -> int:
    """image_seq_len: a tile's patches, pixel-shuffled by scale_factor on each side."""
    vision = cfg["vision_config"]
    return (vision["image_size"] // vision["patch_size"]) ** 2 // cfg["scale_factor"] ** 2


@pytest.mark.parametrize("model_type", ["idefics3", "smolvlm"])
def test_image_ships_at_the_text_hidden_size_not_the_shuffled_width(model_type):
    cfg = tiny_config(model_type)
    hidden = cfg["text_config"]["hidden_size"] = 80
    result = ecwidth.measure(cfg, device="cpu")
    assert result.widths == result.predicted == {"image": hidden}  # the connector's linear maps to the text width
    assert hidden != cfg["vision_config"]["hidden_size"] * cfg["scale_factor"] ** 2


def test_profile_item_flattens_every_tile_of_a_4_by_4_split_and_the_global_tile(family):
    cfg = tiny_config("idefics3")
    adapter, model = family
    minimal = encoded(adapter, model, "image", "minimal")
    profile = encoded(adapter, model, "image", "profile")
    text_hidden = cfg["text_config"]["hidden_size"]
    assert minimal.shape == (1, text_hidden)  # one tile of one pixel-shuffle window
    assert profile.shape == ((4 * 4 + 1) * tokens_per_tile(cfg), text_hidden)
    assert adapter.profile_tokens(model.config, "image") == profile.shape[0]


def test_profile_item_is_capped_in_whole_tiles(family):
    cfg = tiny_config("idefics3")
    adapter, model = family
    item = adapter.dummy_item(model, "image", "profile", max_tokens=3 * tokens_per_tile(cfg) + 1)
    tile = cfg["vision_config"]["image_size"]
    assert item["pixel_values"].shape == (1, 3, 3, tile, tile)
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
def test_image_tokens_follow_the_default_processor(height, width, tiles):
    cfg = tiny_config("idefics3")
    config = resolve_spec(cfg).config
    adapter = adapter_for("idefics3")
    assert adapter.embed_tokens(config, ItemSize("image", height=height, width=width)) == tiles * tokens_per_tile(cfg)
