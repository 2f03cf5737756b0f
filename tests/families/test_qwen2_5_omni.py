"""Qwen2.5-Omni thinker at tiny scale: image, video and audio, none packed.

Expected widths follow vLLM's thinker: vision ships the merger output,
``vision_config.out_hidden_size``; audio ships ``audio_config.output_dim``.
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

OUT_HIDDEN = 48
AUDIO_OUT = 56


def thinker(out_hidden: int = OUT_HIDDEN, audio_out: int = AUDIO_OUT) -> dict[str, Any]:
    """A tiny thinker config: 2 vision blocks at patch 14 as published, 1 audio layer, a 1-layer text model."""
    return {
        "vision_config": {
            "depth": 2,
            "hidden_size": 32,
            "intermediate_size": 64,
            "num_heads": 2,
            "out_hidden_size": out_hidden,
            "fullatt_block_indexes": [1],
            "window_size": 112,
            "patch_size": 14,
            "spatial_merge_size": 2,
            "temporal_patch_size": 2,
        },
        "audio_config": {
            "d_model": 32,
            "encoder_layers": 1,
            "encoder_attention_heads": 2,
            "encoder_ffn_dim": 64,
            "num_mel_bins": 128,
            "n_window": 100,
            "output_dim": audio_out,
        },
        "text_config": {
            "hidden_size": 40,
            "num_hidden_layers": 1,
            "num_attention_heads": 2,
            "num_key_value_heads": 1,
            "intermediate_size": 64,
            "vocab_size": 64,
        },
    }


def tiny(**sizes: int) -> dict[str, Any]:
    return {"model_type": "qwen2_5_omni", "thinker_config": thinker(**sizes)}


@pytest.mark.parametrize(("out_hidden", "audio_out"), [(48, 56), (64, 24)])
def test_each_modality_ships_its_own_output_width(out_hidden: int, audio_out: int) -> None:
    result = measure(tiny(out_hidden=out_hidden, audio_out=audio_out), device="cpu")
    assert result.widths == {"image": out_hidden, "video": out_hidden, "audio": audio_out}
    assert result.predicted == result.widths


def test_no_tower_hidden_size_is_the_width() -> None:
    config = tiny()
    result = measure(config, device="cpu")
    fields = config["thinker_config"]
    assert result.widths["image"] != fields["vision_config"]["hidden_size"]
    assert result.widths["audio"] != fields["audio_config"]["d_model"]
    assert result.lm_hidden_size == fields["text_config"]["hidden_size"] not in result.widths.values()


def test_a_thinker_config_on_its_own_is_measured_the_same() -> None:
    result = measure({"model_type": "qwen2_5_omni_thinker", **thinker()}, device="cpu")
    assert result.widths == {"image": OUT_HIDDEN, "video": OUT_HIDDEN, "audio": AUDIO_OUT}


def test_minimal_and_profile_items_share_widths_and_audio_tokens_follow_the_pooling() -> None:
    adapter = adapter_for("qwen2_5_omni")
    model = build_on_cpu(tiny())
    with torch.inference_mode():
        for modality in ("image", "video"):
            minimal = adapter.encode(model, modality, adapter.dummy_item(model, modality, "minimal"))
            profile = adapter.encode(model, modality, adapter.dummy_item(model, modality, "profile", max_tokens=16))
            assert minimal.shape == (1, OUT_HIDDEN)
            assert profile.shape[-1] == OUT_HIDDEN and 1 < profile.shape[0] <= 16
        # Three mel frames: two after the stride-2 convolution, one after 2× pooling.
        assert adapter.encode(model, "audio", adapter.dummy_item(model, "audio", "minimal")).shape == (1, AUDIO_OUT)
        # 30 s are 3000 mel frames: 1500 after the convolution, 750 after pooling.
        assert adapter.encode(model, "audio", adapter.dummy_item(model, "audio", "profile")).shape == (750, AUDIO_OUT)


@pytest.mark.parametrize("path", ["vision_config.out_hidden_size", "audio_config.output_dim", "text_config.hidden_size"])
def test_a_missing_required_field_is_a_config_error(path: str) -> None:
    config = tiny()
    section, field = path.split(".")
    del config["thinker_config"][section][field]
    with pytest.raises(ConfigError, match=field):
        measure(config, device="cpu")


def test_token_counts_follow_the_processor_settings() -> None:
    config = resolve_spec(tiny()).config  # patch 14, merge 2: one token per 28×28 pixels
    adapter = adapter_for("qwen2_5_omni")
    assert adapter.embed_tokens(config, ItemSize("image", 448, 448)) == 16 * 16
    assert adapter.embed_tokens(config, ItemSize("image", 1024, 1024)) == 37 * 37  # 1024 / 28 rounds to 37
    # Each frame has its own 100352–602112 pixel budget; 8 frames are 4 temporal patches.
    assert adapter.embed_tokens(config, ItemSize("video", 448, 448, frames=8)) == 4 * 16 * 16
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=30)) == 750
    # Profiles: 12845056 / 28² image tokens; one frame pair of 602112 / 28² tokens; 30 s of audio.
    assert adapter.profile_tokens(config, "image") == 16384
    assert adapter.profile_tokens(config, "video") == 768
    assert adapter.profile_tokens(config, "audio") == 750
