"""Nemotron 3.5 Transcribe at tiny scale: the projector's output at the text width; one row a stack of frames begun."""

from __future__ import annotations

import math

import torch
from building import built
from tiny_configs import tiny_config

from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure


def test_width_is_the_lm_hidden_size_not_the_towers() -> None:
    config = tiny_config("nemo_speechlm")
    result = measure(config, device="cpu")
    assert result.widths == {"audio": config["text_config"]["hidden_size"]}
    towers = config["audio_config"]["asr_config"], config["audio_config"]["diarization_config"]["audio_config"]
    assert result.widths["audio"] not in {tower["hidden_size"] for tower in towers}


def test_a_clip_ships_one_row_per_stack_begun() -> None:
    raw = tiny_config("nemo_speechlm")
    asr = raw["audio_config"]["asr_config"]
    adapter, model = built(raw)
    seconds = 0.1  # 11 frames through the centred STFT
    frames = 1 + int(seconds * 16000) // 160
    padded = math.ceil(frames / asr["subsampling_factor"]) * asr["subsampling_factor"]
    item = {
        "input_features": torch.randn(1, padded, asr["num_mel_bins"]),
        "input_features_mask": (torch.arange(padded) < frames).long()[None],
    }
    with torch.inference_mode():
        shipped = adapter.encode(model, "audio", item)
    assert len(shipped) == math.ceil(frames / asr["subsampling_factor"])
    assert adapter.embed_tokens(model.config, ItemSize("audio", seconds=seconds)) == len(shipped)
