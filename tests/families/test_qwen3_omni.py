"""Qwen3-Omni-MoE thinker at tiny scale: DeepStack vision, unpacked audio.

Expected widths follow vLLM's thinker: vision ships
``out_hidden_size × (1 + levels)``, audio ships ``audio_config.output_dim``.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch

from ecwidth.errors import NotServedError
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure, measure_widths
from ecwidth.reading.configs import resolve_spec
from tests.building import build_on_cpu, built, encoded
from tests.tiny_configs import tiny_config


def with_deepstack(model_type: str, levels: list[int] | None = None) -> dict[str, Any]:
    """The tiny config of ``model_type``, DeepStack after the given vision blocks where given."""
    config = tiny_config(model_type)
    if levels is not None:
        config.get("thinker_config", config)["vision_config"]["deepstack_visual_indexes"] = levels
    return config


def vision_width(vision: dict[str, Any]) -> int:
    """vLLM's Qwen3 vision tower: the merger output, then one merger output per DeepStack level."""
    return vision["out_hidden_size"] * (1 + len(vision["deepstack_visual_indexes"]))


@pytest.mark.parametrize(
    "config",
    [
        with_deepstack("qwen3_omni_moe", []),
        with_deepstack("qwen3_omni_moe", [1]),
        with_deepstack("qwen3_omni_moe", [0, 1, 2]),
    ],
)
def test_vision_packs_deepstack_and_audio_does_not(config: dict[str, Any]) -> None:
    fields = config.get("thinker_config", config)
    vision, audio = fields["vision_config"], fields["audio_config"]
    levels = len(vision["deepstack_visual_indexes"])
    result = measure(config, device="cpu")
    assert result.widths == result.predicted
    assert result.widths == {"image": vision_width(vision), "video": vision_width(vision), "audio": audio["output_dim"]}
    assert result.deepstack_levels == {"image": levels, "video": levels, "audio": 0}
    assert result.lm_hidden_size == fields["text_config"]["hidden_size"]


def test_a_bare_thinker_config_is_refused_as_unserved_yet_builds_to_the_whole_configs_widths() -> None:
    config = with_deepstack("qwen3_omni_moe_thinker")
    with pytest.raises(NotServedError, match="qwen3_omni_moe_thinker"):
        measure(config, device="cpu")
    with torch.inference_mode():
        widths = measure_widths(build_on_cpu(config))
    vision = vision_width(config["vision_config"])
    assert widths == {"image": vision, "video": vision, "audio": config["audio_config"]["output_dim"]}


def test_minimal_vision_items_are_one_token_and_audio_tokens_follow_the_chunks() -> None:
    config = tiny_config("qwen3_omni_moe")
    thinker = config["thinker_config"]
    adapter, model = built(config)
    for modality in ("image", "video"):
        assert encoded(adapter, model, modality, "minimal").shape == (1, vision_width(thinker["vision_config"]))
    audio_out = thinker["audio_config"]["output_dim"]
    # One mel frame survives the three stride-2 convolutions as one embedding.
    assert encoded(adapter, model, "audio", "minimal").shape == (1, audio_out)
    # 30 s are 3000 mel frames: 30 chunks of 100 frames, 13 embeddings each.
    assert encoded(adapter, model, "audio", "profile").shape == (390, audio_out)
    # 250 frames: two full chunks (2 × 13) and a 50-frame tail (50 → 25 → 13 → 7).
    clip = {"input_features": torch.randn(1, 128, 250), "feature_attention_mask": torch.ones(1, 250, dtype=torch.long)}
    with torch.inference_mode():
        assert adapter.encode(model, "audio", clip).shape == (2 * 13 + 7, audio_out)


def test_token_counts_follow_the_processor_settings() -> None:
    config = resolve_spec(tiny_config("qwen3_omni_moe")).config  # patch 16, merge 2: one token per 32×32 pixels
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
