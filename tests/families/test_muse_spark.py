"""Muse Spark at tiny scale: vision at the text width past the adapter, audio at its tower's, one token a hop begun."""

from __future__ import annotations

import math

import torch

from ecwidth.engines.releases import SGLANG_0_5_23, VLLM_0_33
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.measuring.predict import predict_widths
from tests.building import built
from tests.tiny_configs import tiny_config


def test_vision_ships_the_text_width_and_audio_its_towers_proj() -> None:
    config = tiny_config("muse_spark")
    result = measure(config, device="cpu")
    hidden = config["text_config"]["hidden_size"]
    assert result.widths == {"image": hidden, "video": hidden, "audio": config["audio_config"]["out_hidden_size"]}


def test_a_clip_ships_one_row_per_hop_begun() -> None:
    raw = tiny_config("muse_spark")
    hop = math.prod(raw["audio_config"]["patch_sizes"])
    adapter, model = built(raw)
    seconds = 0.01  # 240 samples at 24 kHz
    real = int(seconds * 24000)
    padded = math.ceil(real / hop) * hop
    item = {"input_values": torch.randn(1, padded), "input_values_mask": (torch.arange(padded) < real).long()[None]}
    with torch.inference_mode():
        shipped = adapter.encode(model, "audio", item)
    assert len(shipped) == math.ceil(real / hop)
    assert adapter.embed_tokens(model.config, ItemSize("audio", seconds=seconds)) == len(shipped)


def test_vllm_0_33_and_sglang_predict_the_same_widths() -> None:
    raw = tiny_config("muse_spark")
    assert predict_widths(raw, engine=SGLANG_0_5_23) == predict_widths(raw, engine=VLLM_0_33)


def test_sglang_sizes_every_modality_as_its_tower_ships_it() -> None:
    result = measure(tiny_config("muse_spark"), device="cpu", engine=SGLANG_0_5_23)
    assert set(result.engine_sizes) == {"image", "video", "audio"}
    assert result.undersized == {}
