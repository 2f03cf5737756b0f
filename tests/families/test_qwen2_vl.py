"""Qwen2-VL and Qwen2.5-VL at tiny scale.

Expected widths follow vLLM's Qwen2 vision towers: each item ships the patch
merger's output, ``vision_config.hidden_size`` wide in Qwen2-VL and
``vision_config.out_hidden_size`` wide in Qwen2.5-VL; no DeepStack.
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

TEXT = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 1,
    "num_attention_heads": 2,
    "num_key_value_heads": 1,
    "vocab_size": 64,
    "max_position_embeddings": 65536,
    "rope_scaling": {"type": "mrope", "mrope_section": [4, 2, 2]},
}


def tiny_qwen2_vl(merger_width: int = 32) -> dict[str, Any]:
    """Flat, as the published Qwen2-VL config.json: text fields at the top level."""
    vision = {
        "depth": 2,
        "embed_dim": 16,
        "hidden_size": merger_width,
        "mlp_ratio": 2,
        "num_heads": 2,
        "in_chans": 3,
        "patch_size": 14,
        "spatial_merge_size": 2,
        "temporal_patch_size": 2,
    }
    return {"model_type": "qwen2_vl", **TEXT, "vision_config": vision}


def tiny_qwen2_5_vl(merger_width: int = 32) -> dict[str, Any]:
    """Nested, as transformers 5 saves it: the text fields under text_config."""
    vision = {
        "depth": 2,
        "hidden_size": 16,
        "intermediate_size": 32,
        "num_heads": 2,
        "out_hidden_size": merger_width,
        "patch_size": 14,
        "spatial_merge_size": 2,
        "temporal_patch_size": 2,
        "window_size": 56,
        "fullatt_block_indexes": [1],
    }
    return {"model_type": "qwen2_5_vl", "text_config": TEXT, "vision_config": vision}


TINY = {"qwen2_vl": tiny_qwen2_vl, "qwen2_5_vl": tiny_qwen2_5_vl}
MERGER_WIDTH_FIELD = {"qwen2_vl": "hidden_size", "qwen2_5_vl": "out_hidden_size"}
TOWER_WIDTH_FIELD = {"qwen2_vl": "embed_dim", "qwen2_5_vl": "hidden_size"}



@pytest.mark.parametrize("model_type", TINY)
def test_width_is_the_merger_output_and_matches_the_prediction(model_type: str) -> None:
    config = TINY[model_type]()
    expected = config["vision_config"][MERGER_WIDTH_FIELD[model_type]]
    result = measure(config, device="cpu")
    assert result.widths == {"image": expected, "video": expected}
    assert result.predicted == result.widths
    assert result.deepstack_levels == {"image": 0, "video": 0}


@pytest.mark.parametrize("model_type", TINY)
def test_the_tower_width_is_not_the_width_and_the_merger_is_not_the_lm(model_type: str) -> None:
    # The naive field (the tower's own width) is the trap; and the width follows
    # the merger even where it differs from the LM's hidden size.
    config = TINY[model_type](merger_width=48)
    result = measure(config, device="cpu")
    assert result.widths["image"] == 48 != config["vision_config"][TOWER_WIDTH_FIELD[model_type]]
    assert result.lm_hidden_size == TEXT["hidden_size"] != result.widths["image"]
    assert result.predicted == result.widths


@pytest.mark.parametrize("model_type", TINY)
def test_profile_item_has_more_tokens_and_the_same_width(model_type: str) -> None:
    adapter, model = built(TINY[model_type]())
    with torch.inference_mode():
        for modality in ("image", "video"):
            minimal = adapter.encode(model, modality, adapter.dummy_item(model, modality, "minimal"))
            profile = adapter.encode(model, modality, adapter.dummy_item(model, modality, "profile", max_tokens=16))
            assert minimal.shape == (1, 32)
            assert profile.shape[-1] == 32
            assert 1 < profile.shape[0] <= 16


@pytest.mark.parametrize(
    ("model_type", "field"),
    [
        ("qwen2_vl", "hidden_size"),
        ("qwen2_vl", "embed_dim"),
        ("qwen2_5_vl", "out_hidden_size"),
        ("qwen2_5_vl", "depth"),
    ],
)
def test_a_missing_required_field_is_a_config_error(model_type: str, field: str) -> None:
    config = TINY[model_type]()
    del config["vision_config"][field]
    with pytest.raises(ConfigError, match=field):
        measure(config, device="cpu")


@pytest.mark.parametrize("model_type", TINY)
def test_token_counts_follow_the_published_processor_settings(model_type: str) -> None:
    config = resolve_spec(TINY[model_type]()).config  # patch 14, merge 2: one token per 28×28 pixels
    adapter = adapter_for(model_type)
    assert adapter.embed_tokens(config, ItemSize("image", 448, 448)) == 16 * 16
    assert adapter.embed_tokens(config, ItemSize("image", 1024, 1024)) == 37 * 37  # 1024/28 = 36.6 rounds up
    # Over the 12845056-pixel cap (16384 tokens): 4000² scales down to 3584² = 128² tokens.
    assert adapter.embed_tokens(config, ItemSize("image", 4000, 4000)) == 128 * 128
    # Frames pair up along time, an odd count padded: 8 frames are 4 temporal patches, 7 too.
    assert adapter.embed_tokens(config, ItemSize("video", 448, 448, frames=8)) == 4 * 16 * 16
    assert adapter.embed_tokens(config, ItemSize("video", 448, 448, frames=7)) == 4 * 16 * 16
    # Profiles as vLLM: the 12845056-pixel image; a video of at most 14 such frames within max_model_len
    # (65536 here: four frame pairs).
    assert adapter.profile_tokens(config, "image") == 16384
    assert adapter.profile_tokens(config, "video") == 4 * 16384


@pytest.mark.parametrize(("model_length", "frame_pairs"), [(32768, 2), (128000, 7), (8192, 1)])
def test_video_profile_is_cut_to_the_model_length_and_14_frames(model_length: int, frame_pairs: int) -> None:
    # 32768 is Qwen2-VL-7B's length, 128000 Qwen2.5-VL-7B's; a pair that does not fit still leaves one.
    config = tiny_qwen2_vl()
    config["max_position_embeddings"] = model_length
    assert adapter_for("qwen2_vl").profile_tokens(resolve_spec(config).config, "video") == frame_pairs * 16384


@pytest.mark.parametrize("model_type", TINY)
def test_encoded_tokens_match_the_token_count(model_type: str) -> None:
    adapter, model = built(TINY[model_type]())
    patch_dim = 3 * 2 * 14 * 14  # channels × temporal patch × patch²
    grid = (2, 8, 8)  # a 4-frame 112×112 video, in patches
    item = {"pixel_values_videos": torch.randn(2 * 8 * 8, patch_dim), "video_grid_thw": torch.tensor([grid])}
    with torch.inference_mode():
        packed = adapter.encode(model, "video", item)
    assert packed.shape == (adapter.embed_tokens(model.config, ItemSize("video", 112, 112, frames=4)), 32)
