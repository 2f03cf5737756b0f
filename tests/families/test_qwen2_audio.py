"""Qwen2-Audio at tiny scale.

Expected widths follow vLLM's ``_process_audio_input``: the audio tower's
output through the linear ``multi_modal_projector``, ``text_config.hidden_size``
wide, never the tower's ``d_model``.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch

from ecwidth.adapter import ItemSize, adapter_for
from ecwidth.configs import resolve_spec
from ecwidth.errors import ConfigError
from ecwidth.measure import measure

from building import build_on_cpu

TEXT_HIDDEN = 48


def tiny(max_source_positions: int = 1500) -> dict[str, Any]:
    """A two-layer tower that takes the published 3000-frame window (2 × max_source_positions)."""
    audio = {
        "model_type": "qwen2_audio_encoder",
        "d_model": 16,
        "encoder_layers": 2,
        "encoder_attention_heads": 2,
        "encoder_ffn_dim": 32,
        "num_mel_bins": 8,
        "max_source_positions": max_source_positions,
    }
    text = {
        "model_type": "qwen2",
        "hidden_size": TEXT_HIDDEN,
        "intermediate_size": 64,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "vocab_size": 64,
    }
    return {"model_type": "qwen2_audio", "audio_config": audio, "text_config": text}


def built(config: dict[str, Any], *, weights: bool = False) -> tuple[Any, torch.nn.Module]:
    adapter = adapter_for("qwen2_audio")
    model = build_on_cpu(config)
    if weights:  # finite values, to compare two computations
        torch.manual_seed(0)
        with torch.no_grad():
            for param in [*model.audio_tower.parameters(), *model.multi_modal_projector.parameters()]:
                param.normal_(0, 0.1)
    return adapter, model


def test_width_is_the_lm_hidden_size_not_d_model() -> None:
    config = tiny()
    result = measure(config, device="cpu")
    assert result.widths == {"audio": config["text_config"]["hidden_size"]}
    assert result.widths["audio"] != config["audio_config"]["d_model"]
    assert result.predicted == result.widths


def test_the_published_config_leaves_the_width_to_the_text_class_default() -> None:
    # Qwen2-Audio-7B's text_config has no hidden_size: Qwen2Config's 4096 applies, not d_model's 1280.
    config = tiny()
    del config["text_config"]["hidden_size"]
    assert measure(config, device="cpu").widths == {"audio": 4096}


def test_minimal_is_one_token_and_profile_is_the_whole_window() -> None:
    adapter, model = built(tiny())
    with torch.inference_mode():
        minimal = adapter.encode(model, "audio", adapter.dummy_item(model, "audio", "minimal"))
        profile = adapter.encode(model, "audio", adapter.dummy_item(model, "audio", "profile"))
        capped = adapter.encode(model, "audio", adapter.dummy_item(model, "audio", "profile", max_tokens=10))
    assert minimal.shape == (1, TEXT_HIDDEN)
    assert profile.shape == (750, TEXT_HIDDEN)  # 3000 frames: 1500 after the stride-2 conv, 750 after pooling
    assert capped.shape == (10, TEXT_HIDDEN)


def test_the_tower_takes_exactly_its_window_of_mel_frames() -> None:
    adapter, model = built(tiny(max_source_positions=50))
    item = adapter.dummy_item(model, "audio", "minimal")
    assert item["input_features"].shape == (1, 8, 100)
    with pytest.raises(ValueError, match="length 100"):
        model.audio_tower(item["input_features"][..., :99])


@pytest.mark.parametrize("real_frames", [3, 37, 39, 100])
def test_dropping_padding_rows_gives_the_rows_of_the_masked_full_window(real_frames: int) -> None:
    # vLLM runs the padded window with the padding masked out of attention, then keeps the real rows.
    adapter, model = built(tiny(max_source_positions=50), weights=True)
    features = torch.randn(1, 8, 100)
    conv_rows = (real_frames - 1) // 2 + 1
    tokens = (conv_rows - 2) // 2 + 1
    mask = torch.zeros(1, 1, 50, 50)
    mask[..., conv_rows:] = float("-inf")
    item = {"input_features": features, "feature_attention_mask": (torch.arange(100) < real_frames).long()[None]}
    with torch.inference_mode():
        shipped = adapter.encode(model, "audio", item)
        full = model.multi_modal_projector(model.audio_tower(features, attention_mask=mask).last_hidden_state)
    torch.testing.assert_close(shipped, full[0, :tokens])


def test_a_missing_required_field_is_a_config_error() -> None:
    config = tiny()
    del config["audio_config"]["d_model"]
    with pytest.raises(ConfigError, match="d_model"):
        measure(config, device="cpu")


def test_token_counts_follow_the_feature_extractor() -> None:
    config = resolve_spec(tiny()).config
    adapter = adapter_for("qwen2_audio")
    # 100 mel frames a second; stride-2 conv, then 2× pooling: 25 tokens a second.
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=30)) == 750
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=10)) == 250
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=60)) == 750  # one 30 s window at most
    assert adapter.profile_tokens(config, "audio") == 750
