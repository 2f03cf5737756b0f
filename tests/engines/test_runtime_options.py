"""Video pruning (EVS): the channels vLLM appends, built from the item and read from the packed tensor.

Expected widths come from config fields plus the engine's rule read in
vLLM 0.32: Qwen2.5-VL appends 4 mrope channels, the Qwen3-VL tower family and
Cohere Compass 5 (``qwen2_5_vl.py``, ``qwen3_vl.py``, ``cohere_compass.py``).
"""

from __future__ import annotations

import pytest
import torch

from ecwidth.engines.runtime import RuntimeOptions
from ecwidth.errors import UnsupportedOptionError
from ecwidth.families.packing import mrope_position_channels
from ecwidth.measuring.measure import measure
from ecwidth.measuring.predict import predict_widths
from tests.tiny_configs import deepstack_width, tiny_config


@pytest.mark.parametrize(
    "model_type, modalities, channels",
    [("qwen2_5_vl", ("image", "video"), 4), ("qwen3_vl", ("image", "video"), 5), ("cohere_compass", ("image",), 5)],
)
def test_pruning_appends_the_engines_channels_to_every_item(model_type, modalities, channels):
    config = tiny_config(model_type)
    off = measure(config, device="cpu")
    on = measure(config, device="cpu", video_pruning_rate=0.5)
    assert off.widths == {m: deepstack_width(config) for m in modalities}
    assert on.widths == {m: deepstack_width(config) + channels for m in modalities}
    assert on.predicted == on.widths
    assert on.as_json()["options"] == {"video_pruning_rate": 0.5}
    assert "options" not in off.as_json()


def test_a_family_without_pruning_names_the_option_and_the_families_that_take_it():
    with pytest.raises(UnsupportedOptionError, match="video_pruning_rate.*qwen2_5_vl"):
        predict_widths(tiny_config("qwen2_vl"), video_pruning_rate=0.3)


def test_qwen3_5_video_with_pruning_is_refused_as_the_engine_cannot_serve_it():
    config = tiny_config("qwen3_5")
    assert measure(config, ["image"], device="cpu", video_pruning_rate=0.3).widths == {
        "image": deepstack_width(config) + 5
    }
    with pytest.raises(UnsupportedOptionError, match="crashes"):
        measure(config, ["video"], device="cpu", video_pruning_rate=0.3)
    everything = measure(config, device="cpu", video_pruning_rate=0.3)  # what it can serve, and why not the rest
    assert everything.widths == {"image": deepstack_width(config) + 5}
    assert "crashes" in everything.as_json()["unserved"]["video"]


def test_a_pruned_survey_keeps_what_the_engine_serves_and_says_what_it_does_not(tmp_path):
    from ecwidth.measuring.survey import survey

    result = survey({"tiny-qwen3-5": tiny_config("qwen3_5")}, device="cpu", progress=False, video_pruning_rate=0.3)
    assert not result.failures
    assert [(row.model, row.modality) for row in result.table.rows] == [("tiny-qwen3-5", "image")]
    assert "crashes" in result.unserved["tiny-qwen3-5 video"]


@pytest.mark.parametrize("rate", [-0.1, 1.0, float("nan"), float("inf"), True, "0.5"])
def test_out_of_range_rates_are_refused(rate):
    with pytest.raises(UnsupportedOptionError, match=r"\[0, 1\)"):
        RuntimeOptions(video_pruning_rate=rate)


def test_positions_follow_the_merged_grid_frame_row_column():
    positions = mrope_position_channels((2, 4, 6), merge=2)
    assert positions.shape == (2 * 2 * 3, 4)
    assert positions[:, 0].tolist() == [0] * 6 + [1] * 6
    assert positions[:6, 1].tolist() == [0, 0, 0, 1, 1, 1]
    assert positions[:6, 2].tolist() == [0, 1, 2, 0, 1, 2]
    assert bool((positions[:, 3] == 3).all())
    assert positions.dtype == torch.long


def test_the_command_line_takes_the_engines_option_and_records_it(tmp_path, capsys):
    import json

    from ecwidth.cli.commands import main

    config = tiny_config("qwen2_5_vl")
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    assert main(["measure", "--config", str(path), "--video-pruning-rate", "0.25", "--json"]) == 0
    measured = json.loads(capsys.readouterr().out)
    assert measured["widths"]["video"] == deepstack_width(config) + 4
    assert measured["options"] == {"video_pruning_rate": 0.25}
    assert main(["predict", "--config", str(path), "--video-pruning-rate", "0.25", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["predicted"] == measured["widths"]
    assert main(["predict", "--config", str(path), "--video-pruning-rate", "1.5"]) == 2
    assert "[0, 1)" in capsys.readouterr().err


def test_survey_refuses_a_named_model_that_takes_no_pruning_before_any_work():
    from ecwidth.engines.releases import DEFAULT
    from ecwidth.measuring.survey import survey, takes_options

    pruning = RuntimeOptions(video_pruning_rate=0.5)
    assert takes_options("qwen2-5-vl-7b-instruct", pruning, DEFAULT)
    assert not takes_options("qwen2-vl-7b-instruct", pruning, DEFAULT)
    assert takes_options("qwen2-vl-7b-instruct", RuntimeOptions(), DEFAULT)  # nothing set: every model
    with pytest.raises(UnsupportedOptionError, match="qwen2_vl does not take video_pruning_rate"):
        survey(["qwen2-5-vl-7b-instruct", "qwen2-vl-7b-instruct"], device="cpu", video_pruning_rate=0.5, progress=False)


def test_the_distributed_command_refuses_an_option_before_joining_any_group(monkeypatch, capsys):
    import torch.distributed as dist

    from ecwidth.cli import distributed

    monkeypatch.setenv("RANK", "0")
    monkeypatch.setenv("WORLD_SIZE", "2")
    assert distributed.main(["--model", "qwen2-vl-7b-instruct", "--video-pruning-rate", "0.5"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("ecwidth.distributed: error:") and "video_pruning_rate" in error and "qwen2_5_vl" in error
    assert not dist.is_initialized()
    assert distributed.main(["--model", "qwen2-5-vl-7b-instruct", "--video-pruning-rate", "1.5"]) == 2
    assert "[0, 1)" in capsys.readouterr().err


def test_torchrun_measures_every_rank_with_the_option_and_records_it(tmp_path):
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    config = tmp_path / "tiny-qwen3-vl" / "config.json"
    config.parent.mkdir()
    config.write_text(json.dumps(tiny_config("qwen3_vl")))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(repo), os.environ.get("PYTHONPATH")]))}
    run = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2",
         "-m", "ecwidth.distributed", "--config", str(config), "--device", "cpu", "--json",
         "--video-pruning-rate", "0.5"],
        capture_output=True, text=True, env=env, cwd=repo, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    (printed,) = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert printed["widths"] == measure(config, device="cpu", video_pruning_rate=0.5).widths
    assert printed["widths"]["image"] == deepstack_width(tiny_config("qwen3_vl")) + 5
    assert printed["options"] == {"video_pruning_rate": 0.5}


def test_config_formulas_under_allocate_with_pruning_on_and_the_prediction_follows():
    from ecwidth.measuring.survey import rows_from_result
    from ecwidth.records.table import WidthTable
    from ecwidth.study import rules

    config = tiny_config("qwen3_vl")
    result = measure(config, device="cpu", video_pruning_rate=0.5)
    comparison = rules.compare_rules(
        WidthTable(rows_from_result(result, measured_at="2026-01-01T00:00:00+00:00")), specs={result.model: config}
    )
    assert set(comparison["options"]) == {"video_pruning_rate=0.5"}
    formula = comparison[comparison["rule"] == "out_hidden_size × (1 + DeepStack)"]
    assert (formula["verdict"] == "under").all()
    assert (formula["measured_width"] - formula["rule_width"] == 5).all()  # the engine's 5 channels, measured
    assert (comparison.loc[comparison["rule"] == "ecwidth prediction", "verdict"] == "exact").all()
    assert any("[video_pruning_rate=0.5]" in label for label in rules.rule_matrix(comparison).index)


@pytest.mark.parametrize(
    "model_type, channels", [("exaone4_5", 4), ("cosmos3_omni", 5), ("qwen3_vl_moe", 5), ("glm4v_moe", 0)]
)
def test_subclassed_engine_classes_inherit_their_parents_pruning(model_type, channels):
    """vLLM's EXAONE 4.5 and Cosmos3 subclass Qwen2.5-VL / Qwen3-VL; GLM-4V-MoE's flag adds nothing."""
    config = tiny_config(model_type)
    off = measure(config, device="cpu", dtype="float32")
    on = measure(config, device="cpu", dtype="float32", video_pruning_rate=0.5)
    served = {m: w + channels for m, w in off.widths.items() if m not in on.unserved}
    assert on.widths == served == on.predicted
    assert set(on.unserved) == ({"video"} if model_type == "exaone4_5" else set())  # no release ships EXAONE video
