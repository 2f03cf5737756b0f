"""DeepStack variants of real configs, measured (ecwidth.study.deepstack)."""

import copy

import pytest

from ecwidth.errors import ConfigError
from ecwidth.reading.catalog import catalog_entry
from ecwidth.study import deepstack

DEEPSTACK = "qwen3-vl-2b-instruct"


def test_level_indexes():
    assert deepstack.level_indexes(24, 3) == [5, 11, 17]  # the published Qwen3-VL-2B/4B choice
    assert deepstack.level_indexes(27, 0) == []
    for depth in (1, 2, 24, 27):
        for levels in range(depth + 1):
            indexes = deepstack.level_indexes(depth, levels)
            assert len(set(indexes)) == levels
            assert all(0 <= i < depth for i in indexes), (depth, levels, indexes)
    with pytest.raises(ValueError, match="0..24"):
        deepstack.level_indexes(24, 25)
    with pytest.raises(ValueError):
        deepstack.level_indexes(24, -1)


def test_variant_copies_and_rewrites_only_the_indexes():
    raw = catalog_entry(DEEPSTACK).config
    before = copy.deepcopy(raw)
    variant = deepstack.variant(raw, 5)
    assert raw == before  # the catalog's dict is untouched
    assert variant["vision_config"]["deepstack_visual_indexes"] == [3, 7, 11, 15, 19]
    variant["vision_config"].pop("deepstack_visual_indexes")
    before["vision_config"].pop("deepstack_visual_indexes")
    assert variant == before
    assert deepstack.variant(raw, 0)["vision_config"]["deepstack_visual_indexes"] == []
    with pytest.raises(ValueError):
        deepstack.variant(raw, 25)  # the vision tower has 24 layers


def test_variant_of_an_omni_config_rewrites_the_thinker():
    raw = catalog_entry("qwen3-omni-30b-a3b-instruct").config
    variant = deepstack.variant(raw, 1)
    assert variant["thinker_config"]["vision_config"]["deepstack_visual_indexes"] == [12]
    assert raw["thinker_config"]["vision_config"]["deepstack_visual_indexes"] == [8, 16, 24]


def test_variant_refuses_a_family_without_deepstack():
    with pytest.raises(ConfigError, match="no DeepStack vision config"):
        deepstack.variant(catalog_entry("gemma-3-4b-it").config, 2)


def test_width_growth_is_measured_not_assumed():
    growth = deepstack.measure_growth(DEEPSTACK, [0, 2], modalities=["image"], device="cpu", dtype="float32")
    assert list(growth.columns) == list(deepstack.GROWTH_COLUMNS)
    assert list(growth["levels"]) == [0, 2]
    assert list(growth["deepstack_visual_indexes"]) == [[], [7, 15]]
    # What the encoder emitted: main features plus one 2048-wide map per level.
    assert list(growth["encoder_width"]) == [2048, 6144]
    assert (growth["encoder_width"] == growth["expected_width"]).all()
    assert list(growth["width_over_hidden"]) == [1.0, 3.0]
    with pytest.raises(ConfigError):
        deepstack.measure_growth("gemma-3-4b-it", [1], device="cpu", dtype="float32")
