"""Qwen2.5-Omni thinker at tiny scale: image, video and audio, none packed.

Expected widths follow vLLM's thinker: vision ships the merger output,
``vision_config.out_hidden_size``; audio ships ``audio_config.output_dim``.
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


def with_widths(model_type: str, out_hidden: int | None = None, audio_out: int | None = None) -> dict[str, Any]:
    """The tiny config of ``model_type`` with the merger's and the audio projector's widths changed where given."""
    config = tiny_config(model_type)
    thinker = config.get("thinker_config", config)
    if out_hidden:
        thinker["vision_config"]["out_hidden_size"] = out_hidden
    if audio_out:
        thinker["audio_config"]["output_dim"] = audio_out
    return config


@pytest.mark.parametrize(
    ("config", "model_type"),
    [
        (with_widths("qwen2_5_omni"), "qwen2_5_omni"),
        (with_widths("qwen2_5_omni", out_hidden=64, audio_out=24), "qwen2_5_omni"),
    ],
)
def test_each_modality_ships_its_own_output_width(config: dict, model_type: str) -> None:
    fields = config.get("thinker_config", config)
    vision, audio = fields["vision_config"], fields["audio_config"]
    result = measure(config, device="cpu")
    assert result.widths == result.predicted
    vision_width = vision["out_hidden_size"]
    assert result.widths == {"image": vision_width, "video": vision_width, "audio": audio["output_dim"]}
    assert result.lm_hidden_size == fields["text_config"]["hidden_size"]


def test_a_bare_thinker_config_is_refused_as_unserved_yet_builds_to_the_whole_configs_widths() -> None:
    config = with_widths("qwen2_5_omni_thinker")
    with pytest.raises(NotServedError, match="qwen2_5_omni_thinker"):
        measure(config, device="cpu")
    with torch.inference_mode():
        widths = measure_widths(build_on_cpu(config))
    vision = config["vision_config"]["out_hidden_size"]
    assert widths == {"image": vision, "video": vision, "audio": config["audio_config"]["output_dim"]}


def test_minimal_vision_items_are_one_token_and_audio_tokens_follow_the_pooling() -> None:
    config = tiny_config("qwen2_5_omni")
    thinker = config["thinker_config"]
    adapter, model = built(config)
    for modality in ("image", "video"):
        assert encoded(adapter, model, modality, "minimal").shape == (1, thinker["vision_config"]["out_hidden_size"])
    audio_out = thinker["audio_config"]["output_dim"]
    # Three mel frames: two after the stride-2 convolution, one after 2× pooling.
    assert encoded(adapter, model, "audio", "minimal").shape == (1, audio_out)
    # 30 s are 3000 mel frames: 1500 after the convolution, 750 after pooling.
    assert encoded(adapter, model, "audio", "profile").shape == (750, audio_out)


def test_token_counts_follow_the_processor_settings() -> None:
    config = resolve_spec(tiny_config("qwen2_5_omni")).config  # patch 14, merge 2: one token per 28×28 pixels
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
