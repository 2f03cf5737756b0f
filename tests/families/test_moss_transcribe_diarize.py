"""MOSS-Transcribe-Diarize at tiny scale: vLLM ships the VQ adaptor's output, text_config.hidden_size wide."""

from __future__ import annotations

import torch

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.building import built
from tests.tiny_configs import tiny_config


def test_token_counts_follow_vllms_rule() -> None:
    config = resolve_spec(tiny_config("moss_transcribe_diarize")).config
    adapter = adapter_for("moss_transcribe_diarize")
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=30)) == 375
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=10)) == 125  # 159999 // 1280 + 1
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=0.01)) == 1
    assert adapter.profile_tokens(config, "audio") == 180 * 375  # 90 minutes


def test_minimal_is_one_token_from_a_full_window() -> None:
    adapter, model = built(tiny_config("moss_transcribe_diarize"))
    item = adapter.dummy_item(model, "audio", "minimal")
    assert item["input_features"].shape == (1, 8, 3000)
    with torch.inference_mode():
        assert adapter.encode(model, "audio", item).shape == (1, 24)
