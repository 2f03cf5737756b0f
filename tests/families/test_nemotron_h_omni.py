"""Nemotron-H Omni at tiny scale: every modality ships the text width; video items cannot be built on a meta LM."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ecwidth.errors import UnmeasurableError
from ecwidth.families.adapter import adapter_for
from ecwidth.measuring.measure import measure
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec

TINY = Path(__file__).parents[1] / "tiny" / "nemotron_h_omni.json"


def tiny() -> dict:
    return json.loads(TINY.read_text())


def test_image_and_audio_ship_the_text_width() -> None:
    cfg = tiny()
    text = cfg["llm_config"]["hidden_size"]
    result = measure(cfg, device="cpu")
    assert result.widths == {"image": text, "audio": text}


def test_video_is_predicted_but_unmeasurable() -> None:
    cfg = tiny()
    assert predict_widths(cfg) == dict.fromkeys(("image", "video", "audio"), cfg["llm_config"]["hidden_size"])
    result = measure(cfg, device="cpu")
    assert "video" not in result.widths and "embed_tokens" in result.as_json()["predicted_only"]["video"]
    with pytest.raises(UnmeasurableError, match="can only be predicted.*embed_tokens"):
        measure(cfg, ["video"], device="cpu")


def test_without_a_sound_config_there_is_no_audio() -> None:
    cfg = tiny()
    del cfg["sound_config"]
    text = cfg["llm_config"]["hidden_size"]
    assert adapter_for("nemotron_h_omni").predict(resolve_spec(cfg).config) == dict.fromkeys(("image", "video"), text)


def test_video_pruning_is_taken_and_adds_no_channels() -> None:
    cfg = tiny()
    result = measure(cfg, device="cpu", video_pruning_rate=0.5)
    width = cfg["llm_config"]["hidden_size"]  # nano_nemotron_vl.py: pruning drops rows, appends no channels
    assert result.widths == {"image": width, "audio": width}
    assert predict_widths(cfg, video_pruning_rate=0.5)["video"] == width
