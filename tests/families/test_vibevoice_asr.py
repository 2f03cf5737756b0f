"""VibeVoice-ASR at tiny scale: two tokenizers' latents projected to the text width and summed; one row a hop begun."""

from __future__ import annotations

import math

import torch

from ecwidth.families.items import ItemSize
from tests.building import built
from tests.tiny_configs import tiny_config


def test_a_clip_ships_one_row_per_hop_begun() -> None:
    raw = tiny_config("vibevoice_asr")
    hop = math.prod(raw["acoustic_tokenizer_encoder_config"]["downsampling_ratios"])
    adapter, model = built(raw)
    kind = adapter.item_kind(model.config, "audio")
    for seconds in (0.001, 0.01):
        real = kind.clip_samples(seconds)
        padded = math.ceil(real / hop) * hop
        item = {
            "input_values": torch.randn(1, 1, padded),
            "padding_mask": (torch.arange(padded) < real).long()[None],
        }
        with torch.inference_mode():
            shipped = adapter.encode(model, "audio", item)
        assert len(shipped) == math.ceil(real / hop)
        assert adapter.embed_tokens(model.config, ItemSize("audio", seconds=seconds)) == len(shipped)
