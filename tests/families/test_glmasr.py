"""GLM-ASR at tiny scale: vLLM ships the projector's output, text_config.hidden_size wide."""

from __future__ import annotations

import torch

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.building import built
from tests.tiny_configs import tiny_config


def test_token_counts_follow_the_processor() -> None:
    config = resolve_spec(tiny_config("glmasr")).config
    adapter = adapter_for("glmasr")
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=30)) == 375
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=10)) == 125  # 1000 frames: 500 conv rows, 4 a token
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=1000)) == 21 * 375  # max_audio_len 655 s
    assert adapter.profile_tokens(config, "audio") == 21 * 375


def test_minimal_is_one_token_from_seven_frames() -> None:
    adapter, model = built(tiny_config("glmasr"))
    item = adapter.dummy_item(model, "audio", "minimal")
    assert item["input_features"].shape == (1, 8, 7)
    with torch.inference_mode():
        assert adapter.encode(model, "audio", item).shape == (1, 24)
