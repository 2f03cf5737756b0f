"""Molmo (remote code): the image projector's output, the flat config's hidden_size; predicted, or measured through
the checkpoint's own code with --trust-remote-code."""

import json
import shutil
from pathlib import Path

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_the_flat_configs_hidden_size():
    raw = tiny_config("molmo")
    assert predict_widths(raw) == {"image": raw["hidden_size"]}
    assert raw["hidden_size"] != raw["intermediate_size"] // 2  # the projector's inner width is not the width


def test_the_width_follows_hidden_size():
    raw = tiny_config("molmo")
    raw["hidden_size"] = 72
    assert predict_widths(raw) == {"image": 72}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("molmo"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = tiny_config("molmo")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.hidden_size == raw["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "olmo"


@pytest.fixture
def snapshot(tmp_path):
    """A copy of ``tests/snapshots/molmo``: a flat config and the code files its ``auto_map`` names (a stand-in)."""
    return shutil.copytree(Path(__file__).parents[1] / "snapshots" / "molmo", tmp_path / "molmo-tiny")


def test_with_trust_remote_code_the_checkpoints_vision_backbone_is_measured(snapshot):
    hidden = json.loads((snapshot / "config.json").read_text())["hidden_size"]
    result = ecwidth.measure(snapshot, device="cpu", trust_remote_code=True)
    assert result.widths == {"image": hidden} == result.predicted
    assert result.as_json()["built_from"] == "checkpoint"


def test_the_measured_width_is_what_the_checkpoints_projector_ships(snapshot):
    modeling = snapshot / "modeling_molmo.py"
    modeling.write_text(modeling.read_text().replace("nn.Linear(16, config.hidden_size)", "nn.Linear(16, 56)"))
    with pytest.warns(ecwidth.WidthMismatchWarning, match="measured image width 56"):
        assert ecwidth.measure(snapshot, device="cpu", trust_remote_code=True).widths == {"image": 56}
