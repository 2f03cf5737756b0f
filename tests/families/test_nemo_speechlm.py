"""Nemotron 3.5 Transcribe at tiny scale: the projector's output at the text width; one row a stack of frames begun."""

from __future__ import annotations

import math

import torch

from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure_widths
from tests.building import build_on_cpu, built
from tests.tiny_configs import tiny_config


def test_audio_reaches_the_lm_at_the_text_hidden_size() -> None:
    config = tiny_config("nemo_speechlm")
    with torch.inference_mode():
        assert measure_widths(build_on_cpu(config)) == {"audio": config["text_config"]["hidden_size"]}


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
