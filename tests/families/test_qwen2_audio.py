"""Qwen2-Audio at tiny scale.

Expected widths follow vLLM's ``_process_audio_input``: the audio tower's
output through the linear ``multi_modal_projector``, ``text_config.hidden_size``
wide, never the tower's ``d_model``.
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


def with_window(max_source_positions: int) -> dict[str, Any]:
    """The tiny config (a two-layer tower) taking a window of 2 × max_source_positions mel frames."""
    config = tiny_config("qwen2_audio")
    config["audio_config"]["max_source_positions"] = max_source_positions
    return config


def test_the_published_config_leaves_the_width_to_the_text_class_default() -> None:
    # Qwen2-Audio-7B's text_config has no hidden_size: Qwen2Config's 4096 applies, not d_model's 1280.
    config = tiny_config("qwen2_audio")
    del config["text_config"]["hidden_size"]
    assert measure(config, device="cpu").widths == {"audio": 4096}


def test_minimal_is_one_token_and_profile_is_the_whole_published_window() -> None:
    config = tiny_config("qwen2_audio")
    assert config["audio_config"]["max_source_positions"] == 1500  # the published 3000-frame window
    text_hidden = config["text_config"]["hidden_size"]
    adapter, model = built(config)
    minimal = encoded(adapter, model, "audio", "minimal")
    profile = encoded(adapter, model, "audio", "profile")
    capped = encoded(adapter, model, "audio", "profile", max_tokens=10)
    assert minimal.shape == (1, text_hidden)
    assert profile.shape == (750, text_hidden)  # 3000 frames: 1500 after the stride-2 conv, 750 after pooling
    assert capped.shape == (10, text_hidden)


def test_the_tower_takes_exactly_its_window_of_mel_frames() -> None:
    config = with_window(50)
    adapter, model = built(config)
    item = adapter.dummy_item(model, "audio", "minimal")
    assert item["input_features"].shape == (1, config["audio_config"]["num_mel_bins"], 100)
    with pytest.raises(ValueError, match="length 100"):
        model.audio_tower(item["input_features"][..., :99])


@pytest.mark.parametrize("real_frames", [3, 37, 39, 100])
def test_dropping_padding_rows_gives_the_rows_of_the_masked_full_window(real_frames: int) -> None:
    # vLLM runs the padded window with the padding masked out of attention, then keeps the real rows.
    config = with_window(50)
    adapter, model = built(config)
    randomize(model.audio_tower, model.multi_modal_projector)  # finite values, to compare two computations
    features = torch.randn(1, config["audio_config"]["num_mel_bins"], 100)
    conv_rows = (real_frames - 1) // 2 + 1
    tokens = (conv_rows - 2) // 2 + 1
    mask = torch.zeros(1, 1, 50, 50)
    mask[..., conv_rows:] = float("-inf")
    item = {"input_features": features, "feature_attention_mask": (torch.arange(100) < real_frames).long()[None]}
    with torch.inference_mode():
        shipped = adapter.encode(model, "audio", item)
        full = model.multi_modal_projector(model.audio_tower(features, attention_mask=mask).last_hidden_state)
    torch.testing.assert_close(shipped, full[0, :tokens])


def test_token_counts_follow_the_feature_extractor() -> None:
    config = resolve_spec(tiny_config("qwen2_audio")).config
    adapter = adapter_for("qwen2_audio")
    # 100 mel frames a second; stride-2 conv, then 2× pooling: 25 tokens a second.
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=30)) == 750
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=10)) == 250
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=60)) == 750  # one 30 s window at most
    assert adapter.profile_tokens(config, "audio") == 750
