"""OmniASR-LLM at tiny scale: the backend ships the projector's output, at the text width; frames follow the conv stack."""

from __future__ import annotations

import torch

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure_widths
from ecwidth.reading.configs import resolve_spec
from tests.building import build_on_cpu, built
from tests.tiny_configs import tiny_config


def test_audio_reaches_the_lm_at_the_text_hidden_size_not_the_conv_encoders() -> None:
    config = tiny_config("omniasr")
    with torch.inference_mode():
        widths = measure_widths(build_on_cpu(config))
    assert widths == {"audio": config["text_config"]["hidden_size"]}
    assert widths["audio"] != config["audio_config"]["conv_dim"][-1]


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
