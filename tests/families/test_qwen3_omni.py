"""Qwen3-Omni-MoE thinker at tiny scale: DeepStack vision, unpacked audio.

Expected widths follow vLLM's thinker: vision ships
``out_hidden_size × (1 + levels)``, audio ships ``audio_config.output_dim``.
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


def thinker(deepstack: tuple[int, ...] = (0, 2)) -> dict[str, Any]:
    """A tiny thinker config: 3 vision blocks at patch 16, 1 audio layer, a 1-layer MoE text model."""
    return {
        "vision_config": {
            "depth": 3,
            "hidden_size": 32,
            "intermediate_size": 64,
            "num_heads": 2,
            "out_hidden_size": OUT_HIDDEN,
            "num_position_embeddings": 16,
            "image_size": 64,
            "patch_size": 16,
            "spatial_merge_size": 2,
            "temporal_patch_size": 2,
            "deepstack_visual_indexes": list(deepstack),
        },
        "audio_config": {
            "d_model": 32,
            "encoder_layers": 1,
            "encoder_attention_heads": 2,
            "encoder_ffn_dim": 64,
            "downsample_hidden_size": 8,
            "num_mel_bins": 128,
            "n_window": 50,
            "n_window_infer": 800,
            "output_dim": AUDIO_OUT,
        },
        "text_config": {
            "hidden_size": 40,
            "num_hidden_layers": 1,
            "num_attention_heads": 2,
            "num_key_value_heads": 1,
            "head_dim": 20,
            "intermediate_size": 64,
            "moe_intermediate_size": 16,
            "num_experts": 4,
            "num_experts_per_tok": 2,
            "vocab_size": 64,
        },
    }


def tiny(deepstack: tuple[int, ...] = (0, 2)) -> dict[str, Any]:
    return {"model_type": "qwen3_omni_moe", "thinker_config": thinker(deepstack)}


@pytest.mark.parametrize("deepstack", [(), (1,), (0, 2)])
def test_vision_packs_deepstack_and_audio_does_not(deepstack: tuple[int, ...]) -> None:
    vision = OUT_HIDDEN * (1 + len(deepstack))
    result = measure(tiny(deepstack), device="cpu")
    assert result.widths == {"image": vision, "video": vision, "audio": AUDIO_OUT}
    assert result.predicted == result.widths
    assert result.deepstack_levels == {"image": len(deepstack), "video": len(deepstack), "audio": 0}


def test_one_model_has_two_widths_and_neither_is_a_naive_field() -> None:
    config = tiny(deepstack=(0, 1, 2))
    result = measure(config, device="cpu")
    fields = config["thinker_config"]
    assert result.widths["image"] == 4 * fields["vision_config"]["out_hidden_size"]
    assert result.widths["audio"] == fields["audio_config"]["output_dim"] != fields["audio_config"]["d_model"]
    assert result.widths["image"] != result.widths["audio"]
    assert result.lm_hidden_size == fields["text_config"]["hidden_size"]


def test_a_thinker_config_on_its_own_is_measured_the_same() -> None:
    result = measure({"model_type": "qwen3_omni_moe_thinker", **thinker()}, device="cpu")
    assert result.widths == {"image": 3 * OUT_HIDDEN, "video": 3 * OUT_HIDDEN, "audio": AUDIO_OUT}


def test_minimal_and_profile_items_share_widths_and_audio_tokens_follow_the_chunks() -> None:
    adapter = adapter_for("qwen3_omni_moe")
    model = build_on_cpu(tiny())
    with torch.inference_mode():
        for modality, width in (("image", 3 * OUT_HIDDEN), ("video", 3 * OUT_HIDDEN)):
            minimal = adapter.encode(model, modality, adapter.dummy_item(model, modality, "minimal"))
            profile = adapter.encode(model, modality, adapter.dummy_item(model, modality, "profile", max_tokens=16))
            assert minimal.shape == (1, width)
            assert profile.shape[-1] == width and 1 < profile.shape[0] <= 16
        # One mel frame survives the three stride-2 convolutions as one embedding.
        assert adapter.encode(model, "audio", adapter.dummy_item(model, "audio", "minimal")).shape == (1, AUDIO_OUT)
        # 30 s are 3000 mel frames: 30 chunks of 100 frames, 13 embeddings each.
        assert adapter.encode(model, "audio", adapter.dummy_item(model, "audio", "profile")).shape == (390, AUDIO_OUT)
        # 250 frames: two full chunks (2 × 13) and a 50-frame tail (50 → 25 → 13 → 7).
        clip = {"input_features": torch.randn(1, 128, 250), "feature_attention_mask": torch.ones(1, 250, dtype=torch.long)}
        assert adapter.encode(model, "audio", clip).shape == (2 * 13 + 7, AUDIO_OUT)


@pytest.mark.parametrize(
    "path", ["vision_config.out_hidden_size", "vision_config.deepstack_visual_indexes", "audio_config.output_dim"]
)
def test_a_missing_required_field_is_a_config_error(path: str) -> None:
    config = tiny()
    section, field = path.split(".")
    del config["thinker_config"][section][field]
    with pytest.raises(ConfigError, match=field):
        measure(config, device="cpu")


def test_token_counts_follow_the_processor_settings() -> None:
    config = resolve_spec(tiny()).config  # patch 16, merge 2: one token per 32×32 pixels
    adapter = adapter_for("qwen3_omni_moe")
    assert adapter.embed_tokens(config, ItemSize("image", 448, 448)) == 14 * 14
    assert adapter.embed_tokens(config, ItemSize("image", 1024, 1024)) == 32 * 32
    # Each frame has its own 131072–786432 pixel budget; 8 frames are 4 temporal patches.
    assert adapter.embed_tokens(config, ItemSize("video", 448, 448, frames=8)) == 4 * 14 * 14
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=30)) == 390
    # Profiles: 12845056 / 32² image tokens; one frame pair of 786432 / 32² tokens; 30 s of audio.
    assert adapter.profile_tokens(config, "image") == 12544
    assert adapter.profile_tokens(config, "video") == 768
    assert adapter.profile_tokens(config, "audio") == 390
