"""The command line behaves like the tools around it: help, JSON, stdout for data and stderr for status."""

from __future__ import annotations

import json
import re

import pytest

from ecwidth.cli.commands import main
from ecwidth.cli.parser import build_parser
from tests.tiny_configs import tiny_config

WORKFLOW_ORDER = ["models", "engines", "predict", "measure", "size", "survey", "lookup", "export"]


def test_ecwidth_alone_prints_help_and_succeeds(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: ecwidth")
    listed = re.findall(r"^    (\w+)\s{2,}", out, flags=re.M)
    assert listed[: len(WORKFLOW_ORDER)] == WORKFLOW_ORDER  # the commands, in the order a user works
    for command in WORKFLOW_ORDER:
        assert f"ecwidth {command}" in out  # an example each


@pytest.mark.parametrize("command", WORKFLOW_ORDER)
def test_every_option_with_a_default_shows_it(command):
    sub = build_parser()._subparsers._group_actions[0].choices[command]
    options = sub.format_help().split("\noptions:\n", 1)[1]
    blocks = re.split(r"\n(?=  -)", options)  # one block per option, its help wrapped below it
    for action in sub._actions:
        if action.option_strings and action.default not in (None, False) and action.nargs != 0:
            (block,) = [b for b in blocks if b.lstrip().startswith(tuple(action.option_strings))]
            assert "default" in block, (command, action.option_strings)


def test_lookup_json_says_what_the_width_is_and_takes_any_case(capsys):
    assert main(["lookup", "tables/encoder_widths.json", "qwen3-vl-8b-instruct", "Image", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["model"] == "qwen3-vl-8b-instruct" and printed["modality"] == "image"
    assert isinstance(printed["width"], int)


@pytest.mark.parametrize("output", ["widths.json", "widths.csv"])
def test_survey_into_a_file_path_says_it_wants_a_folder(tmp_path, capsys, output):
    assert main(["survey", "--models", "qwen3-vl-2b-instruct", "-o", str(tmp_path / output)]) == 2
    assert "Pass a folder" in capsys.readouterr().err
    assert not (tmp_path / output).exists()


@pytest.mark.parametrize("jobs", ["0", "-2", "two", "1.5", "²", "65537", "1" + "0" * 400, "9" * 5000])
def test_survey_jobs_that_are_no_positive_count_are_a_one_line_usage_error(tmp_path, capsys, jobs):
    with pytest.raises(SystemExit) as exit_:
        main(["survey", "--models", "qwen3-vl-2b-instruct", "-o", str(tmp_path / "out"), "--jobs", jobs])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--jobs: expected a positive integer (at most 65536) or 'auto'" in err
    assert err.count("\n") == 1 and len(err) < 300  # a 5000-digit value is shortened, not echoed
    assert not (tmp_path / "out").exists()


def test_survey_reports_the_workers_it_started_not_the_jobs_asked_for(tmp_path, capsys):
    configs = []
    for model_type in ("qwen3_vl", "llava"):
        configs.append(tmp_path / f"tiny-{model_type}.json")
        configs[-1].write_text(json.dumps(tiny_config(model_type)))
    argv = ["survey", "--models", *map(str, configs), "-o", str(tmp_path / "out"), "--device", "cpu"]
    assert main([*argv, "--jobs", "10000", "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "across 2 worker processes" in err and "10000" not in err


def test_survey_in_two_workers_says_so_and_writes_the_same_table(tmp_path, capsys):
    configs = []
    for model_type in ("qwen3_vl", "llava"):
        configs.append(tmp_path / f"tiny-{model_type}.json")
        configs[-1].write_text(json.dumps(tiny_config(model_type)))
    tables = {}
    for jobs in ("1", "2"):
        argv = ["survey", "--models", *map(str, configs), "-o", str(tmp_path / jobs), "--device", "cpu", "--json"]
        assert main([*argv, "--jobs", jobs]) == 0
        captured = capsys.readouterr()
        tables[jobs] = [(r["model"], r["modality"], r["encoder_width"]) for r in json.loads(captured.out)["rows"]]
        assert ("across 2 worker processes" in captured.err) == (jobs == "2")
    assert tables["1"] == tables["2"] and len(tables["1"]) == 3


def test_survey_prints_only_the_table_on_stdout(tmp_path, capsys):
    config = tmp_path / "tiny-qwen3-vl.json"
    config.write_text(json.dumps(tiny_config("qwen3_vl")))
    assert main(["survey", "--models", str(config), "-o", str(tmp_path / "out"), "--device", "cpu", "--json"]) == 0
    captured = capsys.readouterr()
    document = json.loads(captured.out)  # nothing but the table
    assert {row["model"] for row in document["rows"]} == {"tiny-qwen3-vl"}
    assert "wrote " in captured.err and "model(s) in" in captured.err


def test_models_has_a_header_modalities_and_release_dates_newest_first(capsys):
    from ecwidth.reading.catalog import catalog_entry, catalog_names

    assert main(["models"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header, first = lines[:2]
    assert header.split()[:4] == ["NAME", "PUBLISHED", "MODEL", "TYPE"] and "MODALITIES" in header
    assert re.search(r"\b(image|video|audio)\b", first)
    newest = catalog_entry(catalog_names()[0])
    assert first.split()[:2] == [newest.name, newest.published]
    assert main(["models", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [row["name"] for row in listed] == catalog_names() and listed[0]["published"] == newest.published


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["--frobnicate"], "unrecognized arguments"),
        (["measure", "--config", "c.json", "--device", "mps"], "invalid choice: 'mps'"),
        (["measure", "--config", "c.json", "--timeout", "soon"], "invalid float value: 'soon'"),
        (["predict", "--config", "c.json", "--video-pruning-rate", "x"], "invalid float value: 'x'"),
        (["export", "t.json", "--format", "yaml"], "invalid choice: 'yaml'"),
        (["lookup", "t.json"], "required"),
    ],
    ids=["command", "option", "device", "timeout", "pruning", "format", "missing-argument"],
)
def test_a_usage_error_is_one_error_line_saying_where_the_usage_is(capsys, argv, expected):
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ecwidth: error: ") and expected in err
    assert err.rstrip().endswith(" --help`)")


def test_a_survey_where_every_model_fails_leaves_the_folder_as_it_was(tmp_path, capsys):
    folder = tmp_path / "out"
    folder.mkdir()
    earlier = folder / "encoder_widths.json"
    earlier.write_text("the earlier survey")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert main(["survey", "--models", str(broken), "-o", str(folder)]) == 1
    assert earlier.read_text() == "the earlier survey" and sorted(p.name for p in folder.iterdir()) == [earlier.name]
    err = capsys.readouterr().err
    assert "ecwidth: error: broken: " in err and "nothing written" in err
