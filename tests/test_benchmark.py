"""benchmarks/measure_cost.py runs end to end and writes the JSON the notebook reads.

Only the schema is checked here, never timings: the speed targets are the
benchmark's own business, and timed tests on shared cores would be flaky.
"""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from ecwidth.families.adapter import find_adapter
from tests.tiny_configs import tiny_qwen3_vl
from tests.toy import ToyConfig

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "measure_cost.py"
COST_KEYS = {"build_s", "encode_s", "peak_rss_bytes", "tokens"}


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("measure_cost", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_tiny_model_gives_every_key_the_issue_asks_for(bench, tmp_path, monkeypatch, capsys):
    config = tmp_path / "tiny" / "config.json"
    config.parent.mkdir()
    config.write_text(json.dumps(tiny_qwen3_vl(levels=2)))
    output = tmp_path / "cost.json"
    monkeypatch.setattr(bench, "BANDWIDTH_BYTES", 2**20)
    argv = ["--models", str(config), "--device", "cpu", "--repeats", "1", "--profile-cap", "4",
            "--catalog-repeats", "0", "-o", str(output)]  # fmt: skip
    assert bench.main(argv) == 0

    report = json.loads(output.read_text())
    assert next(key for key, value in report.items() if isinstance(value, list)) == "models"  # what the notebook reads
    (entry,) = report["models"]
    for key in ("model", "predict_s", "minimal", "profile", "profile_over_minimal_time",
                "profile_over_minimal_memory", "minimal_over_floor", "device", "dtype", "date"):  # fmt: skip
        assert key in entry, key
    assert COST_KEYS <= set(entry["minimal"]) and COST_KEYS | {"real_profile_tokens", "capped"} <= set(entry["profile"])
    assert entry["model"] == "tiny" and entry["device"] == "cpu" and entry["dtype"] == "float32"
    width = tiny_qwen3_vl()["vision_config"]["out_hidden_size"] * 3
    assert entry["minimal"]["widths"] == entry["profile"]["widths"] == {"image": width, "video": width}
    assert entry["minimal"]["tokens"] == 2  # one merged token per modality
    assert entry["profile"]["capped"] and entry["profile"]["tokens"] <= 8 < entry["profile"]["real_profile_tokens"]
    assert report["bandwidth_bytes_per_s"] > 0 and report["survey"] is None
    assert report["targets"]["survey_s"]["met"] is None  # not measured without --survey
    assert "capped at 4 tokens" in capsys.readouterr().out
    on_meta = entry["profile_on_meta"]  # the real, uncapped profile item through meta execution
    assert on_meta["widths"] == entry["minimal"]["widths"] and not on_meta["fell_back"]
    assert sum(on_meta["tokens_by_modality"].values()) == entry["profile"]["real_profile_tokens"]
    assert report["lookup"]["ratio"] > 0 and report["targets"]["lookup_over_python_pass"]["met"] is not None
    assert report["targets"]["survey_over_import_floor"]["met"] is None  # no survey, no ratio


def test_the_survey_timer_reports_wall_time_peak_rss_and_the_model_count(bench):
    # as `ecwidth survey` does: the table on stdout, its status line on stderr
    child = (
        "import sys; x = bytearray(64 * 2**20); print('| table |'); "
        "print('ecwidth: 3 model(s) in 1.5 s of measuring, peak RSS 0.1 GiB', file=sys.stderr)"
    )
    survey = bench.time_survey("cpu", "auto", command=[sys.executable, "-c", child])
    assert survey["returncode"] == 0 and survey["models_measured"] == 3 and survey["measuring_s"] == 1.5
    assert (
        survey["peak_rss_bytes"] >= 64 * 2**20 and survey["wall_s"] > 0 and survey["jobs"] == 1
    )  # no "across N workers"


def test_a_family_without_a_token_rule_has_no_real_profile_size(bench, tokenless_family):
    assert bench.real_profile_tokens(find_adapter("ecwidth_toy"), ToyConfig(), ["image", "audio"]) == {
        "image": 64, "audio": 64
    }  # fmt: skip
    tokenless = ToyConfig(model_type=tokenless_family)
    assert bench.real_profile_tokens(find_adapter(tokenless_family), tokenless, ["image"]) is None
    assert bench._cell(None, "7d") == "      -" and bench._cell(12, "7d") == "     12"


def test_the_survey_split_adds_up_to_the_wall_time_of_the_real_command(bench, tmp_path):
    from benchmarks.cost.processes import MEASURING, PHASES

    models = []
    for name in ("tiny-a", "tiny-b"):
        config = tmp_path / name / "config.json"
        config.parent.mkdir()
        config.write_text(json.dumps(tiny_qwen3_vl(levels=2)))
        models.append(str(config))
    run = bench.time_survey("cpu", "auto", jobs=2, timed=True, models=models)
    assert run["returncode"] == 0 and run["models_measured"] == 2, run["errors"]
    split = run["split"]
    assert split["workers"] == split["jobs"] == 2 and split["models_measured"] == 2 and split["configs_read"] >= 2
    assert sum(split[key] for key, _ in PHASES) == pytest.approx(split["wall_s"], abs=1e-6)  # the phases are the wall
    assert all(split[key] >= 0 for key, _ in PHASES if key not in ("survey_other", "parent_setup"))
    assert sum(split[key] for key, _ in MEASURING) == pytest.approx(split["measuring"], abs=1e-6)
    assert split["builds"] > 0 and split["encodes"] > 0 and split["parent_imports"] > 0
    assert [m["model"] for m in split["slowest_models"]] in (["tiny-a", "tiny-b"], ["tiny-b", "tiny-a"])
