"""Dots 3 Note at tiny scale: widths from the adapters, not the towers; a video item is frame rows then audio rows."""

from __future__ import annotations

import json
from pathlib import Path

import torch

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.reading.configs import resolve_spec
from tests.building import built

TINY = Path(__file__).parents[1] / "tiny" / "dots3_note.json"


def tiny() -> dict:
    return json.loads(TINY.read_text())


def test_widths_are_the_adapter_outputs() -> None:
    cfg = tiny()
    vision, audio = cfg["vision_config"]["adapter_out_dim"], cfg["audio_config"]["whisper_adapter_out_dim"]
    result = measure(cfg, device="cpu")
    assert result.widths == {"image": vision, "video": vision, "audio": audio}
    assert result.predicted == result.widths


def test_the_width_the_port_saves_is_required_under_its_own_name() -> None:
    cfg = tiny()
    cfg["audio_config"]["adapter_out_dim"] = cfg["audio_config"].pop("whisper_adapter_out_dim")
    assert "audio_config.adapter_out_dim" in adapter_for("dots3_note").required_paths(cfg)
    assert measure(cfg, device="cpu").widths["audio"] == cfg["audio_config"]["adapter_out_dim"]


def test_a_video_item_is_its_frame_rows_then_its_audio_rows() -> None:
    adapter, model = built(tiny())
    with torch.inference_mode():
        item = adapter.dummy_item(model, "video", "minimal")
        packed = adapter.encode(model, "video", item)
    assert item["video_grid_thw"].tolist() == [[1, 2, 2]]
    assert packed.shape == (1 + 1, 48)  # one merged frame token, one audio token


def test_token_counts() -> None:
    config = resolve_spec(tiny()).config
    adapter = adapter_for("dots3_note")
    assert adapter.embed_tokens(config, ItemSize("image", 448, 448)) == 16 * 16  # 28 pixels a token
    assert adapter.profile_tokens(config, "image") == 1280  # 28*28*1280 pixels
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=1)) == 13  # ceil(16000 / 1280)
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=61)) == 750 + 13  # a 60 s chunk, then 1 s
    assert adapter.profile_tokens(config, "audio") == 750
