"""Granite 4 Vision at tiny scale: every projected map on the last dim, with no main slice."""

import pytest
import torch

import ecwidth
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.building import build_on_cpu, encoded, randomize
from tests.tiny_configs import tiny_config

# The tiny config: an 8 x 8 patch grid a 64 px tile, downsampled 2/4 to 4 x 4 tokens; maps at layers 2, 0 and 3, 4, 5.


def with_maps(layerwise: list[list[int]], spatial: list[int] | None) -> dict:
    """The tiny config with these layerwise and spatial maps; ``None`` leaves spatial_target_layers unset."""
    cfg = tiny_config("granite4_vision")
    cfg["deepstack_layer_map"] = layerwise
    if spatial is None:
        del cfg["spatial_target_layers"]
    else:
        cfg["spatial_target_layers"] = spatial
    return cfg


@pytest.fixture(scope="module")
def adapter():
    return adapter_for("granite4_vision")


@pytest.fixture(scope="module")
def model():
    model = build_on_cpu(tiny_config("granite4_vision"))
    randomize(model, std=0.02)  # defined values, so slices can be compared exactly
    return model


@pytest.mark.parametrize(
    "layerwise, spatial, maps",
    [
        ([[-1, 0]], [], 1),
        ([[-3, 2], [-1, 0]], [3], 2 + 1),
        ([[-3, 2], [-1, 0]], [3, 4, 5, 6], 2 + 4),
        # Without spatial_target_layers, transformers (and vLLM, which reads its config) use [12, 15, 18, 21].
        ([[-1, 0]], None, 1 + 4),
    ],
)
def test_image_ships_one_lm_wide_slice_per_projected_map(layerwise, spatial, maps):
    cfg = with_maps(layerwise, spatial)
    result = ecwidth.measure(cfg, device="cpu")
    assert result.widths == result.predicted == {"image": cfg["text_config"]["hidden_size"] * maps}
    assert result.deepstack_levels == {"image": maps}


def test_transformers_has_no_main_features_and_slices_are_layerwise_then_spatial_in_config_order(adapter, model):
    text_hidden = model.config.text_config.hidden_size
    item = adapter.dummy_item(model, "image", "profile")  # full tiles: transformers takes them as they are
    with torch.inference_mode():
        packed = adapter.encode(model, "image", item)  # first: it gives image_newline storage
        features = model.get_image_features(item["pixel_values"], item["image_sizes"])
    assert features.pooler_output is None
    assert [layer for layer, _ in features.deepstack_features] == [2, 0, 3, 4, 5]
    assert packed.shape[-1] == 5 * text_hidden
    for index, (_, per_image) in enumerate(features.deepstack_features):
        assert torch.equal(packed[:, index * text_hidden : (index + 1) * text_hidden], per_image[0])


@pytest.mark.parametrize("rate", ["2/4", "4/8", "1/2"])
def test_minimal_item_is_two_one_window_tiles_at_the_smallest_pinpoint(adapter, rate):
    # The smallest window the rate allows: 2 x 2 patches (16 px) pooled to one query, so one token a tile.
    cfg = {**tiny_config("granite4_vision"), "downsample_rate": rate}
    model = build_on_cpu(cfg)
    item = adapter.dummy_item(model, "image", "minimal")
    assert item["pixel_values"].shape == (1, 2, 3, 16, 16)  # base tile and the 64 x 64 pinpoint's one tile
    assert item["image_sizes"].tolist() == [[16, 16]]  # that pinpoint in 16 px tiles
    with torch.inference_mode():
        packed = adapter.encode(model, "image", item)
    # Base, one tile, its row's newline; five maps.
    assert packed.shape == (1 + 1 + 1, 5 * cfg["text_config"]["hidden_size"])


def test_a_minimal_item_leaves_config_and_projectors_as_they_were(adapter, model):
    projectors = [*model.layerwise_projectors, *model.spatial_projectors]
    tables = [(p.query, p.image_positions) for p in projectors]
    encoded(adapter, model, "image", "minimal")
    cfg = tiny_config("granite4_vision")
    assert model.config.vision_config.image_size == cfg["vision_config"]["image_size"]
    assert model.config.image_grid_pinpoints == cfg["image_grid_pinpoints"]
    for projector, (query, positions) in zip(projectors, tables):
        # An 8 x 8 patch grid of 4 x 4 windows pooled to 2 x 2 queries, and the very same learned tables.
        assert (projector.image_side, projector.window_side, projector.query_side, projector.query_length) == (
            8,
            4,
            2,
            4,
        )
        assert projector.query is query and projector.image_positions is positions


def test_profile_item_is_the_pinpoint_with_most_tokens(adapter, model):
    # 128 x 64 (two tiles stacked): base 16 + 8 rows of 4 + 8 newlines = 56 tokens,
    # more than 64 x 128 (4 rows of 8 + 4 newlines + 16 = 52).
    assert adapter.profile_tokens(model.config, "image") == 56
    item = adapter.dummy_item(model, "image", "profile")
    assert item["pixel_values"].shape[1] == 3
    with torch.inference_mode():
        profile = adapter.encode(model, "image", item)
    assert profile.shape == (56, 5 * model.config.text_config.hidden_size)
    capped = adapter.dummy_item(model, "image", "profile", max_tokens=52)
    assert capped["image_sizes"].tolist() == [[64, 128]]


@pytest.mark.parametrize(
    "height, width, tokens",
    [
        (64, 64, 16 + 16 + 4),
        (120, 60, 16 + 8 * 4 + 8),  # best pinpoint 128 x 64: 8 rows of 4, nothing to unpad
        # Best pinpoint 64 x 128 (4 x 8 tokens); 30 x 100 keeps round(30 * 8 / 100) = 2 of the 4 rows.
        (30, 100, 16 + 2 * 8 + 2),
    ],
)
def test_image_tokens_follow_llava_next_anyres_with_downsampling(adapter, height, width, tokens):
    config = resolve_spec(tiny_config("granite4_vision")).config
    assert adapter.embed_tokens(config, ItemSize("image", height=height, width=width)) == tokens
