"""Llama 4 at tiny scale: the producer applies multi_modal_projector, so the width is the text hidden size."""

import pytest
import torch

import ecwidth
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.building import built, encoded
from tests.tiny_configs import tiny_config


@pytest.fixture(scope="module")
def family():
    """The adapter and the model built from the tiny config."""
    return built(tiny_config("llama4"))


def tokens_per_tile(cfg: dict) -> int:
    """A tile's patches, pixel-shuffled by pixel_shuffle_ratio on each side."""
    vision = cfg["vision_config"]
    return int((vision["image_size"] // vision["patch_size"] * vision["pixel_shuffle_ratio"]) ** 2)


def test_width_is_the_text_hidden_size_not_projector_output_dim_which_transformers_returns(family):
    # transformers' get_image_features stops before multi_modal_projector; vLLM's producer does not.
    cfg = tiny_config("llama4")
    _, model = family
    tile = cfg["vision_config"]["image_size"]
    with torch.inference_mode():
        unprojected = model.get_image_features(torch.randn(1, 3, tile, tile)).last_hidden_state
    assert unprojected.shape[-1] == cfg["vision_config"]["projector_output_dim"]
    cfg["text_config"]["hidden_size"] = 80
    result = ecwidth.measure(cfg, device="cpu")
    assert result.widths == result.predicted == {"image": 80} != {"image": unprojected.shape[-1]}


def test_language_model_is_never_given_storage(family):
    _, model = family
    assert all(p.device.type == "meta" for p in model.language_model.parameters())
    assert all(p.device.type == "cpu" for p in model.vision_model.parameters())


def test_minimal_tile_leaves_the_full_tile_tables_in_place(family):
    cfg = tiny_config("llama4")
    adapter, model = family
    positions = model.vision_model.positional_embedding_vlm
    minimal = encoded(adapter, model, "image", "minimal")
    assert minimal.shape == (1, cfg["text_config"]["hidden_size"])  # a tile of one pixel-shuffle window
    assert model.vision_model.positional_embedding_vlm is positions
    patches = (cfg["vision_config"]["image_size"] // cfg["vision_config"]["patch_size"]) ** 2
    assert model.vision_model.rotary_embedding.freqs_ci.shape[0] == patches + 1


def test_profile_item_flattens_all_tiles_and_is_capped_in_whole_tiles(family):
    cfg = tiny_config("llama4")
    adapter, model = family
    profile = encoded(adapter, model, "image", "profile")
    capped = encoded(adapter, model, "image", "profile", max_tokens=9)
    text_hidden = cfg["text_config"]["hidden_size"]
    assert profile.shape == ((16 + 1) * tokens_per_tile(cfg), text_hidden)  # a 16 x 1 canvas plus the global tile
    assert adapter.profile_tokens(model.config, "image") == profile.shape[0]
    assert capped.shape == (2 * tokens_per_tile(cfg), text_hidden)


@pytest.mark.parametrize(
    "height, width, tiles",
    [
        (56, 56, 1),  # fits one tile: no global tile is added
        (40, 100, 2 + 1),  # smallest upscale: a 1 x 2 canvas
        (1000, 1000, 4 * 4 + 1),  # no canvas upscales: the mildest downscale, 4 x 4
        (16 * 56, 56, 16 + 1),  # the profile canvas
    ],
)
def test_image_tokens_follow_the_processor(height, width, tiles):
    cfg = tiny_config("llama4")
    config = resolve_spec(cfg).config
    adapter = adapter_for("llama4")
    assert adapter.embed_tokens(config, ItemSize("image", height=height, width=width)) == tiles * tokens_per_tile(cfg)
