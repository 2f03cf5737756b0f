"""Granite 4 Vision at tiny scale: every projected map on the last dim, with no main slice."""

import pytest
import torch

import ecwidth
from ecwidth.adapter import ItemSize, adapter_for
from ecwidth.configs import resolve_spec
from ecwidth.errors import ConfigError

from building import build_on_cpu

TEXT_HIDDEN = 40  # each map is projected to the LM hidden size


def tiny_config(layerwise: tuple = ((-3, 2), (-1, 0)), spatial: tuple | None = (3, 4, 5)) -> dict:
    raw = {
        "model_type": "granite4_vision",
        "deepstack_layer_map": [list(pair) for pair in layerwise],
        "spatial_vision_layer": -1,
        "downsample_rate": "2/4",
        "image_grid_pinpoints": [[64, 64], [64, 128], [128, 64]],
        "vision_feature_select_strategy": "full",
        "text_config": {
            "model_type": "granite",
            "hidden_size": TEXT_HIDDEN,
            "intermediate_size": 64,
            "num_hidden_layers": 8,
            "num_attention_heads": 2,
            "num_key_value_heads": 1,
            "vocab_size": 100,
        },
        "vision_config": {
            "model_type": "siglip_vision_model",
            "hidden_size": 64,  # the Q-Former takes hidden_size / 64 heads
            "intermediate_size": 64,
            "num_hidden_layers": 3,
            "num_attention_heads": 2,
            "image_size": 64,  # full tiles: an 8 x 8 patch grid, downsampled 2/4 to 4 x 4 tokens
            "patch_size": 8,
        },
    }
    if spatial is not None:
        raw["spatial_target_layers"] = list(spatial)
    return raw


@pytest.fixture(scope="module")
def adapter():
    return adapter_for("granite4_vision")


@pytest.fixture(scope="module")
def model(adapter):
    model = build_on_cpu(tiny_config())
    for param in model.parameters():  # defined values, so slices can be compared exactly
        if not param.is_meta:
            param.normal_(0, 0.02)
    return model


@pytest.mark.parametrize(
    "layerwise, spatial",
    [([[-1, 0]], []), ([[-3, 2], [-1, 0]], [3]), ([[-3, 2], [-1, 0]], [3, 4, 5, 6])],
)
def test_image_ships_one_lm_wide_slice_per_projected_map(layerwise, spatial):
    result = ecwidth.measure(tiny_config(layerwise, spatial), device="cpu")
    assert result.widths == {"image": TEXT_HIDDEN * (len(layerwise) + len(spatial))}
    assert result.predicted == result.widths
    assert result.deepstack_levels == {"image": len(layerwise) + len(spatial)}


def test_spatial_maps_default_to_the_four_transformers_targets():
    # Without spatial_target_layers, transformers (and vLLM, which reads its config) use [12, 15, 18, 21].
    result = ecwidth.measure(tiny_config([[-1, 0]], spatial=None), device="cpu")
    assert result.widths == {"image": TEXT_HIDDEN * (1 + 4)}


def test_width_is_not_the_lm_hidden_size_and_transformers_has_no_main_features(adapter, model):
    item = adapter.dummy_item(model, "image", "profile")  # full tiles: transformers takes them as they are
    with torch.inference_mode():
        packed = adapter.encode(model, "image", item)  # first: it gives image_newline storage
        features = model.get_image_features(item["pixel_values"], item["image_sizes"])
    assert features.pooler_output is None
    assert packed.shape[-1] == 5 * TEXT_HIDDEN != TEXT_HIDDEN


def test_slices_are_layerwise_then_spatial_maps_in_config_order(adapter, model):
    item = adapter.dummy_item(model, "image", "profile")
    with torch.inference_mode():
        packed = adapter.encode(model, "image", item)  # first: it gives image_newline storage
        features = model.get_image_features(item["pixel_values"], item["image_sizes"])
    assert [layer for layer, _ in features.deepstack_features] == [2, 0, 3, 4, 5]
    for index, (_, per_image) in enumerate(features.deepstack_features):
        assert torch.equal(packed[:, index * TEXT_HIDDEN : (index + 1) * TEXT_HIDDEN], per_image[0])


@pytest.mark.parametrize("rate", ["2/4", "4/8", "1/2"])
def test_minimal_item_is_two_one_window_tiles_at_the_smallest_pinpoint(adapter, rate):
    # The smallest window the rate allows: 2 x 2 patches (16 px) pooled to one query, so one token a tile.
    raw = {**tiny_config(), "downsample_rate": rate}
    model = build_on_cpu(raw)
    item = adapter.dummy_item(model, "image", "minimal")
    assert item["pixel_values"].shape == (1, 2, 3, 16, 16)  # base tile and the 64 x 64 pinpoint's one tile
    assert item["image_sizes"].tolist() == [[16, 16]]  # that pinpoint in 16 px tiles
    with torch.inference_mode():
        packed = adapter.encode(model, "image", item)
    assert packed.shape == (1 + 1 + 1, 5 * TEXT_HIDDEN)  # base, one tile, its row's newline; five maps


def test_a_minimal_item_leaves_config_and_projectors_as_they_were(adapter, model):
    projectors = [*model.layerwise_projectors, *model.spatial_projectors]
    tables = [(p.query, p.image_positions) for p in projectors]
    with torch.inference_mode():
        adapter.encode(model, "image", adapter.dummy_item(model, "image", "minimal"))
    assert model.config.vision_config.image_size == 64
    assert model.config.image_grid_pinpoints == tiny_config()["image_grid_pinpoints"]
    for projector, (query, positions) in zip(projectors, tables):
        # An 8 x 8 patch grid of 4 x 4 windows pooled to 2 x 2 queries, and the very same learned tables.
        assert (projector.image_side, projector.window_side, projector.query_side, projector.query_length) == (8, 4, 2, 4)
        assert projector.query is query and projector.image_positions is positions


def test_profile_item_is_the_pinpoint_with_most_tokens(adapter, model):
    # 128 x 64 (two tiles stacked): base 16 + 8 rows of 4 + 8 newlines = 56 tokens,
    # more than 64 x 128 (4 rows of 8 + 4 newlines + 16 = 52).
    config = model.config
    assert adapter.profile_tokens(config, "image") == 56
    item = adapter.dummy_item(model, "image", "profile")
    assert item["pixel_values"].shape[1] == 3
    with torch.inference_mode():
        minimal = adapter.encode(model, "image", adapter.dummy_item(model, "image", "minimal"))
        profile = adapter.encode(model, "image", item)
    assert profile.shape == (56, minimal.shape[-1])
    assert minimal.shape[0] * 10 < profile.shape[0]
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
    config = resolve_spec(tiny_config()).config
    assert adapter.embed_tokens(config, ItemSize("image", height=height, width=width)) == tokens


@pytest.mark.parametrize("field", ["deepstack_layer_map", "downsample_rate", "image_grid_pinpoints"])
def test_missing_required_field_is_a_config_error(field):
    raw = tiny_config()
    del raw[field]
    with pytest.raises(ConfigError, match=field):
        ecwidth.measure(raw, device="cpu")
