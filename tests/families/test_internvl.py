"""InternVL at tiny scale: InternViT tiles pixel-shuffled and projected, images and videos at the text width."""

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
    return built(tiny_config("internvl"))


def tokens_per_tile(cfg: dict) -> int:
    """image_seq_length: a tile's patches, pixel-shuffled by downsample_ratio on each side."""
    side = cfg["vision_config"]["image_size"][0] // cfg["vision_config"]["patch_size"][0]
    return int((side * cfg["downsample_ratio"]) ** 2)


def test_images_and_videos_ship_at_the_text_hidden_size_not_the_shuffled_width():
    cfg = tiny_config("internvl")
    hidden = cfg["text_config"]["hidden_size"] = 80
    result = ecwidth.measure(cfg, device="cpu")
    assert result.widths == result.predicted == {"image": hidden, "video": hidden}  # the projector's second linear
    assert hidden != cfg["vision_config"]["hidden_size"] * 4  # the shuffle's 4 = 1 / downsample_ratio²


@pytest.mark.parametrize("modality", ["image", "video"])
def test_profile_item_flattens_all_tiles_at_the_text_width(family, modality):
    cfg = tiny_config("internvl")
    adapter, model = family
    # Images: 12 tiles and the thumbnail; videos: one tile a frame, as many as max_position_embeddings holds.
    tiles = 12 + 1 if modality == "image" else cfg["text_config"]["max_position_embeddings"] // tokens_per_tile(cfg)
    minimal = encoded(adapter, model, modality, "minimal")
    profile = encoded(adapter, model, modality, "profile")
    text_hidden = cfg["text_config"]["hidden_size"]
    assert minimal.shape == (1, text_hidden)  # one tile of one pixel-shuffle window
    assert profile.shape == (tiles * tokens_per_tile(cfg), text_hidden)
    assert adapter.profile_tokens(model.config, modality) == profile.shape[0]


def test_profile_item_is_capped_in_whole_tiles(family):
    cfg = tiny_config("internvl")
    adapter, model = family
    item = adapter.dummy_item(model, "image", "profile", max_tokens=2 * tokens_per_tile(cfg))
    assert item["pixel_values"].shape == (2, 3, *cfg["vision_config"]["image_size"])


@pytest.mark.parametrize(
    "height, width, tiles",
    [
        (56, 56, 1),  # one tile: no thumbnail
        (112, 112, 2 * 2 + 1),  # square: more tiles win the tie while the image fills over half of them
        (56, 168, 3 + 1),  # the 3:1 canvas, plus the thumbnail
        (1000, 1000, 3 * 3 + 1),  # 4 x 4 would exceed 12 tiles
    ],
)
def test_image_tokens_follow_the_default_processor(height, width, tiles):
    cfg = tiny_config("internvl")
    config = resolve_spec(cfg).config
    adapter = adapter_for("internvl")
    assert adapter.embed_tokens(config, ItemSize("image", height=height, width=width)) == tiles * tokens_per_tile(cfg)


def test_video_tokens_are_one_tile_per_frame():
    cfg = tiny_config("internvl")
    config = resolve_spec(cfg).config
    adapter = adapter_for("internvl")
    assert adapter.embed_tokens(config, ItemSize("video", height=448, width=448, frames=8)) == 8 * tokens_per_tile(cfg)
