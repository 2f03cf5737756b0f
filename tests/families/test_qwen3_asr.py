"""Qwen3-ASR at tiny scale: the width is audio_config.output_dim, not the LM's hidden size."""

from __future__ import annotations

import torch

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.building import built
from tests.tiny_configs import tiny_config


def test_token_counts_go_by_100_frame_chunks() -> None:
    config = resolve_spec(tiny_config("qwen3_asr")).config
    adapter = adapter_for("qwen3_asr")
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=1)) == 13
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=1.5)) == 13 + 7  # 50-frame tail: 25, 13, 7
    assert adapter.profile_tokens(config, "audio") == 390


def test_minimal_is_one_frame_padded_to_one_chunk() -> None:
    config = tiny_config("qwen3_asr")
    adapter, model = built(config)
    item = adapter.dummy_item(model, "audio", "minimal")
    assert item["input_features"].shape == (1, 8, 100) and int(item["input_features_mask"].sum()) == 1
    with torch.inference_mode():
        assert adapter.encode(model, "audio", item).shape == (1, config["audio_config"]["output_dim"])
