"""EXAONE 4.5 at tiny scale: the Qwen2.5-VL merger's ``out_hidden_size``; no pruned video under either release."""

from __future__ import annotations

import copy
import json

import pytest

from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.errors import UnsupportedOptionError
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config

#: Qwen2.5-VL's pruning channels on an image: frame, row, column and merged width (``qwen2_5_vl.py``).
MROPE_CHANNELS = 4


def pruning_config() -> dict:
    """Written for the pruning test: a merger width unlike the tower's, the LM's and the tiny config's."""
    raw = copy.deepcopy(tiny_config("exaone4_5"))
    raw["vision_config"].update(hidden_size=24, out_hidden_size=56, num_heads=2, num_key_value_heads=1)
    raw["text_config"]["hidden_size"] = 72
    return raw


def test_with_pruning_images_get_the_channels_and_videos_are_unserved() -> None:
    raw = pruning_config()
    width = raw["vision_config"]["out_hidden_size"]
    result = measure(raw, device="cpu", dtype="float32", video_pruning_rate=0.5)
    assert result.widths == {"image": width + MROPE_CHANNELS}
    assert result.predicted == result.widths  # the prediction claims no video either
    assert set(result.unserved) == {"video"}
    assert predict_widths(raw, video_pruning_rate=0.5) == {"image": width + MROPE_CHANNELS}
    with pytest.raises(UnsupportedOptionError, match="video"):
        measure(raw, ["video"], device="cpu", dtype="float32", video_pruning_rate=0.5)
    assert measure(raw, device="cpu", dtype="float32").widths == {"image": width, "video": width}


@pytest.mark.parametrize("release", [VLLM_0_32, VLLM_0_33])
def test_a_pruned_measure_leaves_the_video_out(release) -> None:
    result = measure(pruning_config(), device="cpu", dtype="float32", video_pruning_rate=0.5, engine=release)
    assert list(result.widths) == ["image"]


def test_the_command_line_reports_the_pruned_video_unserved(tmp_path, capsys) -> None:
    from ecwidth.cli.commands import main

    raw = pruning_config()
    path = tmp_path / "config.json"
    path.write_text(json.dumps(raw))
    assert main(["measure", "--config", str(path), "--video-pruning-rate", "0.5", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    width = raw["vision_config"]["out_hidden_size"] + MROPE_CHANNELS
    assert shown["widths"] == {"image": width} and shown["predicted"] == {"image": width}
    assert set(shown["unserved"]) == {"video"}


def test_token_counts_are_qwen2_vl_s() -> None:
    config = resolve_spec(tiny_config("exaone4_5")).config
    adapter = adapter_for("exaone4_5")
    assert adapter.embed_tokens(config, ItemSize("image", 448, 448)) == 16 * 16
    assert adapter.embed_tokens(config, ItemSize("video", 448, 448, frames=8)) == 4 * 16 * 16
