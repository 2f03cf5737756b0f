"""Qwen2-VL and Qwen2.5-VL at tiny scale.

Expected widths follow vLLM's Qwen2 vision towers: each item ships the patch
merger's output, ``vision_config.hidden_size`` wide in Qwen2-VL and
``vision_config.out_hidden_size`` wide in Qwen2.5-VL; no DeepStack.
"""

from __future__ import annotations

import pytest
import torch

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.reading.configs import resolve_spec
from tests.building import built, encoded
from tests.tiny_configs import tiny_config

# Qwen2-VL's tiny config is flat, as the published config.json (text fields at the top level);
# Qwen2.5-VL's nested, as transformers 5 saves it (text fields under text_config).
MODEL_TYPES = ("qwen2_vl", "qwen2_5_vl")
MERGER_WIDTH_FIELD = {"qwen2_vl": "hidden_size", "qwen2_5_vl": "out_hidden_size"}


@pytest.mark.parametrize("model_type", MODEL_TYPES)
def test_width_follows_the_merger_even_where_it_differs_from_the_lm(model_type: str) -> None:
    config = tiny_config(model_type)
    config["vision_config"][MERGER_WIDTH_FIELD[model_type]] = 48
    lm_hidden = config.get("text_config", config)["hidden_size"]
    result = measure(config, device="cpu")
    assert result.widths == result.predicted == {"image": 48, "video": 48}
    assert result.deepstack_levels == {"image": 0, "video": 0}
    assert result.lm_hidden_size == lm_hidden != 48


@pytest.mark.parametrize("model_type", MODEL_TYPES)
def test_token_counts_follow_the_published_processor_settings(model_type: str) -> None:
    config = resolve_spec(tiny_config(model_type)).config  # patch 14, merge 2: one token per 28×28 pixels
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
    config = tiny_config("qwen2_vl")
    config["max_position_embeddings"] = model_length
    assert adapter_for("qwen2_vl").profile_tokens(resolve_spec(config).config, "video") == frame_pairs * 16384


@pytest.mark.parametrize("model_type", MODEL_TYPES)
def test_encoded_tokens_match_the_token_count_and_a_minimal_item_is_one_token(model_type: str) -> None:
    config = tiny_config(model_type)
    width = config["vision_config"][MERGER_WIDTH_FIELD[model_type]]
    adapter, model = built(config)
    patch_dim = 3 * 2 * 14 * 14  # channels × temporal patch × patch²
    grid = (2, 8, 8)  # a 4-frame 112×112 video, in patches
    item = {"pixel_values_videos": torch.randn(2 * 8 * 8, patch_dim), "video_grid_thw": torch.tensor([grid])}
    with torch.inference_mode():
        packed = adapter.encode(model, "video", item)
    for modality in ("image", "video"):
        assert encoded(adapter, model, modality, "minimal").shape == (1, width)
        assert 1 < encoded(adapter, model, modality, "profile", max_tokens=16).shape[0] <= 16
    assert packed.shape == (adapter.embed_tokens(model.config, ItemSize("video", 112, 112, frames=4)), width)
