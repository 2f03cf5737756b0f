"""Granite Speech and Speech Plus at tiny scale: vLLM ships projector.linear's output, text_config.hidden_size wide."""

from __future__ import annotations

import pytest
import torch

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.reading.configs import resolve_spec
from tests.building import built
from tests.tiny_configs import tiny_config


@pytest.mark.parametrize("model_type", ["granite_speech", "granite_speech_plus"])
def test_width_is_the_lm_hidden_size(model_type: str) -> None:
    config = tiny_config(model_type)
    result = measure(config, device="cpu")
    assert result.widths == {"audio": config["text_config"]["hidden_size"]}


def test_plus_concatenated_layers_widen_only_the_projector_input() -> None:
    config = tiny_config("granite_speech_plus")
    adapter, model = built(config)
    item = adapter.dummy_item(model, "audio", "minimal")
    with torch.inference_mode():
        encoded = model.encoder(item["input_features"]).last_hidden_state
        shipped = adapter.encode(model, "audio", item)
    hidden = config["encoder_config"]["hidden_dim"]
    assert encoded.shape[-1] == hidden * (1 + len(config["encoder_config"]["cat_hidden_layers"]))
    assert shipped.shape == (3, config["text_config"]["hidden_size"])  # one 15-frame block, 15 // 5 queries


def test_token_counts_follow_the_feature_extractor() -> None:
    config = resolve_spec(tiny_config("granite_speech")).config
    adapter = adapter_for("granite_speech")
    # 10 s: 160000 samples, 1001 mel frames, 500 encoder frames, 34 blocks of 15, 3 tokens each.
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=10)) == 102
    assert adapter.profile_tokens(config, "audio") == 5001  # vLLM's get_max_audio_tokens
