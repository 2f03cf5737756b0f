"""Bytes per item, items per buffer, and DeepStack variants measured on a real config."""

import copy

import pytest
import torch

from ecwidth import transfer
from ecwidth.adapter import ItemSize, find_adapter
from ecwidth.catalog import catalog_entry
from ecwidth.errors import ConfigError

from width_tables import table_of

DEEPSTACK = "qwen3-vl-2b-instruct"


def test_dtype_bytes():
    assert transfer.dtype_bytes("bfloat16") == 2
    assert transfer.dtype_bytes("float16") == 2
    assert transfer.dtype_bytes("float32") == 4
    assert transfer.dtype_bytes("float8_e4m3fn") == 1
    assert transfer.dtype_bytes(torch.bfloat16) == 2
    assert transfer.dtype_bytes("torch.float32") == 4
    with pytest.raises(ValueError, match="unknown serving dtype 'int4'"):
        transfer.dtype_bytes("int4")


def test_bytes_and_items_per_buffer():
    assert transfer.bytes_per_token(8192, "bfloat16") == 16384
    assert transfer.bytes_per_token(8192, "float32") == 32768
    assert transfer.item_bytes(196, 8192, "bfloat16") == 196 * 8192 * 2 == 3_211_264
    assert transfer.items_per_buffer(3_211_264) == 311  # floor(10**9 / 3211264)
    assert transfer.items_per_buffer(3_211_264, 2**30) == 334
    assert transfer.items_per_buffer(2 * 10**9) == 0  # an item larger than the buffer does not fit at all
    with pytest.raises(ValueError, match="positive"):
        transfer.items_per_buffer(0)


def test_typical_items_are_the_four_the_study_prices():
    assert [item.size for item in transfer.TYPICAL_ITEMS] == [
        ItemSize("image", height=448, width=448),
        ItemSize("image", height=1024, width=1024),
        ItemSize("video", height=448, width=448, frames=8),
        ItemSize("audio", seconds=30.0),
    ]


def test_item_tokens_follow_the_qwen3_vl_processor():
    # 32-pixel merged patches: 448/32 = 14 -> 196 tokens; 1024/32 = 32 -> 1024; 8 frames in pairs -> 4 x 196.
    assert transfer.item_tokens(DEEPSTACK, ItemSize("image", height=448, width=448)) == 196
    assert transfer.item_tokens(DEEPSTACK, ItemSize("image", height=1024, width=1024)) == 1024
    assert transfer.item_tokens(DEEPSTACK, ItemSize("video", height=448, width=448, frames=8)) == 784


def test_transfer_costs_price_every_item_the_model_takes():
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}})
    costs = transfer.transfer_costs(table, serving_dtype="bfloat16")
    assert list(costs.columns) == list(transfer.TRANSFER_COLUMNS)
    assert list(costs["item"]) == ["image 448×448", "image 1024×1024", "video 8 frames 448×448"]  # no audio
    assert list(costs["tokens"]) == [196, 1024, 784]
    assert (costs["item_bytes"] == costs["tokens"] * 8192 * 2).all()
    assert list(costs["items_per_buffer"]) == [311, 59, 77]
    assert (costs["deepstack_levels"] == 3).all()
    fp32 = transfer.transfer_costs(table, serving_dtype="float32", buffer_bytes=2 * 10**9)
    assert (fp32["item_bytes"] == 2 * costs["item_bytes"]).all()
    assert list(fp32["items_per_buffer"]) == [311, 59, 77]


def test_transfer_costs_for_audio():
    name = "qwen2-audio-7b-instruct"
    if find_adapter(catalog_entry(name).config["model_type"]) is None:
        pytest.skip("qwen2_audio adapter not there yet")
    costs = transfer.transfer_costs(table_of({name: {"audio": 4096}}))
    assert list(costs["item"]) == ["audio 30 s"]
    tokens = costs["tokens"].iloc[0]
    assert 0 < tokens < 30 * 100  # fewer embeddings than 10 ms mel frames
    assert costs["item_bytes"].iloc[0] == tokens * 4096 * 2


def test_width_summary_prices_a_token_in_the_serving_dtype():
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}})
    summary = transfer.width_summary(table, "float16")
    assert list(summary["bytes_per_token"]) == [16384, 16384]
    assert list(summary["width_ratio"]) == [4.0, 4.0]
    assert set(summary["serving_dtype"]) == {"float16"}


def test_deepstack_indexes():
    assert transfer.deepstack_indexes(24, 3) == [5, 11, 17]  # the published Qwen3-VL-2B/4B choice
    assert transfer.deepstack_indexes(27, 0) == []
    for depth in (1, 2, 24, 27):
        for levels in range(depth + 1):
            indexes = transfer.deepstack_indexes(depth, levels)
            assert len(set(indexes)) == levels
            assert all(0 <= i < depth for i in indexes), (depth, levels, indexes)
    with pytest.raises(ValueError, match="0..24"):
        transfer.deepstack_indexes(24, 25)
    with pytest.raises(ValueError):
        transfer.deepstack_indexes(24, -1)


def test_deepstack_variant_copies_and_rewrites_only_the_indexes():
    raw = catalog_entry(DEEPSTACK).config
    before = copy.deepcopy(raw)
    variant = transfer.deepstack_variant(raw, 5)
    assert raw == before  # the catalog's dict is untouched
    assert variant["vision_config"]["deepstack_visual_indexes"] == [3, 7, 11, 15, 19]
    variant["vision_config"].pop("deepstack_visual_indexes")
    before["vision_config"].pop("deepstack_visual_indexes")
    assert variant == before
    assert transfer.deepstack_variant(raw, 0)["vision_config"]["deepstack_visual_indexes"] == []
    with pytest.raises(ValueError):
        transfer.deepstack_variant(raw, 25)  # the vision tower has 24 layers


def test_deepstack_variant_of_an_omni_config_rewrites_the_thinker():
    raw = catalog_entry("qwen3-omni-30b-a3b-instruct").config
    variant = transfer.deepstack_variant(raw, 1)
    assert variant["thinker_config"]["vision_config"]["deepstack_visual_indexes"] == [12]
    assert raw["thinker_config"]["vision_config"]["deepstack_visual_indexes"] == [8, 16, 24]


def test_deepstack_variant_refuses_a_family_without_deepstack():
    with pytest.raises(ConfigError, match="no DeepStack vision config"):
        transfer.deepstack_variant(catalog_entry("gemma-3-4b-it").config, 2)


def test_width_growth_is_measured_not_assumed():
    growth = transfer.deepstack_growth(DEEPSTACK, [0, 2], modalities=["image"], device="cpu", dtype="float32")
    assert list(growth.columns) == list(transfer.GROWTH_COLUMNS)
    assert list(growth["levels"]) == [0, 2]
    assert list(growth["deepstack_visual_indexes"]) == [[], [7, 15]]
    # What the encoder emitted: main features plus one 2048-wide map per level.
    assert list(growth["encoder_width"]) == [2048, 6144]
    assert (growth["encoder_width"] == growth["expected_width"]).all()
    assert list(growth["width_over_hidden"]) == [1.0, 3.0]
    with pytest.raises(ConfigError):
        transfer.deepstack_growth("gemma-3-4b-it", [1], device="cpu", dtype="float32")
