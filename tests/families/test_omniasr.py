"""OmniASR-LLM at tiny scale: the backend ships the projector's output, at the text width; frames follow the conv stack."""

from __future__ import annotations

import torch
from building import built
from tiny_configs import tiny_config

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.reading.configs import resolve_spec


def test_width_is_the_lm_hidden_size_not_the_towers() -> None:
    config = tiny_config("omniasr")
    result = measure(config, device="cpu")
    assert result.widths == {"audio": config["text_config"]["hidden_size"]}
    assert result.widths["audio"] not in (config["audio_config"]["hidden_size"], config["audio_config"]["conv_dim"][-1])


def test_the_token_rule_counts_the_frames_the_tower_emits() -> None:
    adapter, model = built(tiny_config("omniasr"))
    kind = adapter.item_kind(model.config, "audio")
    for seconds in (0.05, 0.1234):
        samples = kind.clip_samples(seconds)
        item = {"input_values": torch.randn(1, 1, samples), "padding_mask": torch.ones(1, samples, dtype=torch.long)}
        with torch.inference_mode():
            shipped = adapter.encode(model, "audio", item)
        assert len(shipped) == adapter.embed_tokens(model.config, ItemSize("audio", seconds=seconds))


def test_the_minimal_clip_is_the_receptive_field_of_one_frame() -> None:
    config = resolve_spec(tiny_config("omniasr")).config
    kind = adapter_for("omniasr").item_kind(config, "audio")
    shortest = kind.minimal_samples(config)
    assert kind.clip_tokens(config, shortest) == 1
    assert kind.clip_tokens(config, shortest - 1) == 0
