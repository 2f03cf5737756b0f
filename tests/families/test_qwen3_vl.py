"""Qwen3-VL, Qwen3-VL-MoE, Qwen3.5 and Qwen3.5-MoE at tiny scale.

Expected widths follow vLLM's Qwen3 vision tower: the merger output, then one
merger output per DeepStack layer, so ``out_hidden_size × (1 + levels)``.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch

from ecwidth.adapter import ItemSize, adapter_for
from ecwidth.configs import resolve_spec
from ecwidth.errors import ConfigError
from ecwidth.measure import measure

from building import built

OUT_HIDDEN = 48
TEXT = {
    "hidden_size": 40,
    "num_hidden_layers": 1,
    "num_attention_heads": 2,
    "num_key_value_heads": 1,
    "head_dim": 20,
    "intermediate_size": 64,
    "vocab_size": 64,
}
MOE_TEXT = {**TEXT, "num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 16}
MODEL_TYPES = ("qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe")


def tiny(model_type: str, deepstack: tuple[int, ...] = (0, 2)) -> dict[str, Any]:
    """A tiny config: 3 vision blocks, patch 16 as published, DeepStack after the given blocks."""
    vision = {
        "depth": 3,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_heads": 2,
        "out_hidden_size": OUT_HIDDEN,
        "num_position_embeddings": 16,
        "patch_size": 16,
        "spatial_merge_size": 2,
        "temporal_patch_size": 2,
        "deepstack_visual_indexes": list(deepstack),
    }
    text = MOE_TEXT if model_type.endswith("_moe") else TEXT
    return {"model_type": model_type, "vision_config": vision, "text_config": text}



@pytest.mark.parametrize("model_type", MODEL_TYPES)
@pytest.mark.parametrize("deepstack", [(), (1,), (0, 2)])
def test_width_is_main_plus_one_slice_per_deepstack_level(model_type: str, deepstack: tuple[int, ...]) -> None:
    expected = OUT_HIDDEN * (1 + len(deepstack))
    result = measure(tiny(model_type, deepstack), device="cpu")
    assert result.widths == {"image": expected, "video": expected}
    assert result.predicted == result.widths
    assert result.deepstack_levels == {"image": len(deepstack), "video": len(deepstack)}


def test_neither_out_hidden_size_nor_the_lm_hidden_size_is_the_width() -> None:
    config = tiny("qwen3_vl", deepstack=(0, 1, 2))
    result = measure(config, device="cpu")
    assert result.widths["image"] == 4 * config["vision_config"]["out_hidden_size"]
    assert result.lm_hidden_size == config["text_config"]["hidden_size"] != result.widths["image"]


def test_qwen3_5_without_a_deepstack_list_ships_the_merger_output_alone() -> None:
    config = tiny("qwen3_5")
    del config["vision_config"]["deepstack_visual_indexes"]
    assert measure(config, device="cpu").widths == {"image": OUT_HIDDEN, "video": OUT_HIDDEN}


def test_levels_follow_layer_order_each_with_its_listed_merger() -> None:
    # Listed out of order: vLLM packs in the order the tower reaches the layers,
    # each through the merger at that layer's position in the list.
    adapter, model = built(tiny("qwen3_vl", deepstack=(2, 0)))
    torch.manual_seed(0)
    with torch.no_grad():
        for param in model.visual.parameters():
            param.normal_(0, 0.1)
    item = adapter.dummy_item(model, "image", "minimal")
    with torch.inference_mode():
        packed = adapter.encode(model, "image", item)
        out = model.visual(item["pixel_values"], grid_thw=item["image_grid_thw"], output_hidden_states=True)
        after_block = out.hidden_states[1:]  # hidden_states[0] is the patch embedding
        mergers = model.visual.deepstack_merger_list
        expected = torch.cat([out.pooler_output, mergers[1](after_block[0]), mergers[0](after_block[2])], dim=-1)
    torch.testing.assert_close(packed, expected)


@pytest.mark.parametrize("model_type", ["qwen3_vl", "qwen3_5"])
def test_profile_item_has_more_tokens_and_the_same_width(model_type: str) -> None:
    adapter, model = built(tiny(model_type))
    width = OUT_HIDDEN * 3  # two DeepStack levels
    with torch.inference_mode():
        for modality in ("image", "video"):
            minimal = adapter.encode(model, modality, adapter.dummy_item(model, modality, "minimal"))
            profile = adapter.encode(model, modality, adapter.dummy_item(model, modality, "profile", max_tokens=16))
            assert minimal.shape == (1, width)
            assert profile.shape[-1] == width
            assert 1 < profile.shape[0] <= 16


@pytest.mark.parametrize(
    ("model_type", "field"),
    [
        ("qwen3_vl", "out_hidden_size"),
        ("qwen3_vl", "deepstack_visual_indexes"),
        ("qwen3_vl_moe", "depth"),
        ("qwen3_5_moe", "out_hidden_size"),
    ],
)
def test_a_missing_required_field_is_a_config_error(model_type: str, field: str) -> None:
    config = tiny(model_type)
    del config["vision_config"][field]
    with pytest.raises(ConfigError, match=field):
        measure(config, device="cpu")


def test_token_counts_follow_the_published_processor_settings() -> None:
    config = resolve_spec(tiny("qwen3_vl")).config  # patch 16, merge 2: one token per 32×32 pixels
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
