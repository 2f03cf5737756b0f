"""Qwen3-VL, Qwen3-VL-MoE, Qwen3.5 and Qwen3.5-MoE at tiny scale.

Expected widths follow vLLM's Qwen3 vision tower: the merger output, then one
merger output per DeepStack layer, so ``out_hidden_size × (1 + levels)``.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.reading.configs import resolve_spec
from tests.building import built, encoded, randomize
from tests.tiny_configs import tiny_config

MODEL_TYPES = ("qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe")


def with_deepstack(model_type: str, levels: list[int]) -> dict[str, Any]:
    """The tiny config of ``model_type`` (3 vision blocks, patch 16 as published), DeepStack after ``levels``."""
    config = tiny_config(model_type)
    config["vision_config"]["deepstack_visual_indexes"] = levels
    return config


@pytest.mark.parametrize("model_type", MODEL_TYPES)
@pytest.mark.parametrize("levels", [[], [0, 1, 2]])
def test_width_is_main_plus_one_slice_per_deepstack_level(model_type: str, levels: list[int]) -> None:
    config = with_deepstack(model_type, levels)
    out_hidden = config["vision_config"]["out_hidden_size"]
    expected = out_hidden * (1 + len(levels))
    result = measure(config, device="cpu")
    assert result.widths == result.predicted == {"image": expected, "video": expected}
    assert result.deepstack_levels == {"image": len(levels), "video": len(levels)}
    assert result.lm_hidden_size == config["text_config"]["hidden_size"]


def test_qwen3_5_without_a_deepstack_list_ships_the_merger_output_alone() -> None:
    config = tiny_config("qwen3_5")
    del config["vision_config"]["deepstack_visual_indexes"]
    out_hidden = config["vision_config"]["out_hidden_size"]
    assert measure(config, device="cpu").widths == {"image": out_hidden, "video": out_hidden}


def test_levels_follow_layer_order_each_with_its_listed_merger() -> None:
    # Listed out of order: vLLM packs in the order the tower reaches the layers,
    # each through the merger at that layer's position in the list.
    adapter, model = built(with_deepstack("qwen3_vl", [2, 0]))
    randomize(model.visual)
    item = adapter.dummy_item(model, "image", "minimal")
    with torch.inference_mode():
        packed = adapter.encode(model, "image", item)
        out = model.visual(item["pixel_values"], grid_thw=item["image_grid_thw"], output_hidden_states=True)
        after_block = out.hidden_states[1:]  # hidden_states[0] is the patch embedding
        mergers = model.visual.deepstack_merger_list
        expected = torch.cat([out.pooler_output, mergers[1](after_block[0]), mergers[0](after_block[2])], dim=-1)
    assert packed.shape[0] == 1  # the minimal item: one merged 2×2 patch
    torch.testing.assert_close(packed, expected)


@pytest.mark.parametrize("model_type", ["qwen3_vl", "qwen3_5"])
def test_minimal_item_is_one_merged_patch_and_profile_the_most_tokens_under_the_cap(model_type: str) -> None:
    adapter, model = built(tiny_config(model_type))
    for modality in ("image", "video"):
        assert encoded(adapter, model, modality, "minimal").shape[0] == 1
        profile = encoded(adapter, model, modality, "profile", max_tokens=16)
        assert 1 < profile.shape[0] <= 16


def test_token_counts_follow_the_published_processor_settings() -> None:
    config = resolve_spec(tiny_config("qwen3_vl")).config  # patch 16, merge 2: one token per 32×32 pixels
    adapter = adapter_for("qwen3_vl")
    assert adapter.embed_tokens(config, ItemSize("image", 448, 448)) == 14 * 14
    assert adapter.embed_tokens(config, ItemSize("image", 1024, 1024)) == 32 * 32
    # 8192² is over the 16777216-pixel cap: scaled by 1/2 to 4096².
    assert adapter.embed_tokens(config, ItemSize("image", 8192, 8192)) == 128 * 128
    # Frames pair up along time: 8 frames are 4 temporal patches.
    assert adapter.embed_tokens(config, ItemSize("video", 448, 448, frames=8)) == 4 * 14 * 14
    # The 25165824-pixel video budget covers all 64 frames together:
    # beta = sqrt(64·1080·1920 / 25165824), frames shrink to 448×832.
    assert adapter.embed_tokens(config, ItemSize("video", 1080, 1920, frames=64)) == 32 * 14 * 26
    # Profiles: 16777216 / 32² tokens; two frames with 25165824 / 2 / 32² tokens.
    assert adapter.profile_tokens(config, "image") == 16384
    assert adapter.profile_tokens(config, "video") == 12288
