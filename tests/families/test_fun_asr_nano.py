"""Fun-ASR-Nano at tiny scale: the adaptor's width, not the encoder's or the projector's inner one; one row an LFR stride."""

from __future__ import annotations

import math

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_a_clip_yields_one_row_per_lfr_stride_of_kaldi_frames() -> None:
    config = resolve_spec(tiny_config("fun_asr_nano")).config
    frames = 1 + (16000 - 400) // 160  # one second: 98 whole 25 ms windows every 10 ms
    assert adapter_for("fun_asr_nano").embed_tokens(config, ItemSize("audio", seconds=1)) == math.ceil(frames / 6)
