"""The steps the notebooks share, in ecwidth.study.notebook."""

import json

import pytest

import ecwidth
from ecwidth.errors import ConfigError, EcwidthError, TableError
from ecwidth.measuring.survey import Survey
from ecwidth.reading.catalog import catalog_names
from ecwidth.records.table import WidthTable
from ecwidth.study import notebook
from tests.width_tables import table_of, toy_row

DEEPSTACK = "qwen3-vl-2b-instruct"  # a DeepStack model in the catalog: 3 levels


def test_select_models():
    assert list(notebook.select_models("all")) == catalog_names()
    assert list(notebook.select_models(f"{DEEPSTACK}, qwen3-vl-8b-instruct")) == [DEEPSTACK, "qwen3-vl-8b-instruct"]
    assert notebook.select_models([DEEPSTACK, DEEPSTACK]) == {DEEPSTACK: DEEPSTACK}
    assert notebook.select_models({"mine": DEEPSTACK}) == {"mine": DEEPSTACK}
    with pytest.raises(ConfigError, match="no-such-model"):
        notebook.select_models(["no-such-model"])
    with pytest.raises(ValueError, match="no models"):
        notebook.select_models([])
    assert list(notebook.select_models(f'["{DEEPSTACK}", "qwen3-vl-8b-instruct"]')) == [
        DEEPSTACK,
        "qwen3-vl-8b-instruct",
    ]
    with pytest.raises(ValueError, match="does not parse"):
        notebook.select_models('["a", ')


@pytest.mark.parametrize(
    ("parameter", "value", "message"),
    [
        ("serving_dtype", "bf16", "serving_dtype = 'bf16': use one of"),
        ("buffer_gb", 0, "positive number"),
        ("video_pruning_rate", 1.0, "up to, not including, 1"),
        ("deepstack_levels", [1, -1], "level counts"),
        ("deepstack_models", "qwen3-vl-2b-instruct", "use a list"),
        ("progress", "yes", "True or False"),
        ("lookup_model", "qwen3-vl-8b-instruct", "not a selected model"),
    ],
)
def test_start_checks_every_parameter_before_any_work(tmp_path, parameter, value, message):
    with pytest.raises(ValueError, match=message):
        notebook.start(str(tmp_path / "out"), models=[DEEPSTACK], device="cpu", **{parameter: value})
    assert not (tmp_path / "out").exists()  # nothing was made


def test_start_reuses_a_table_that_holds_every_model_and_shows_paths_from_the_project(tmp_path, capsys):
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}})
    table.to_json(tmp_path / "t.json")
    run = notebook.start(str(tmp_path / "out"), models=[DEEPSTACK], device="cpu", width_table=str(tmp_path / "t.json"))
    assert run.width_table == tmp_path / "t.json" and run.names == {DEEPSTACK: DEEPSTACK}
    assert "not measured again" in capsys.readouterr().out
    with pytest.raises(TableError, match="qwen3-vl-8b-instruct"):
        notebook.start(str(tmp_path / "out"), models=["qwen3-vl-8b-instruct"], width_table=str(tmp_path / "t.json"))
    assert notebook.shown(notebook.project_root() / "build" / "x.png") == "build/x.png"
    assert notebook.shown(tmp_path) == str(tmp_path)  # outside the project: as it is


def test_check_survey_names_every_failure():
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}})
    ok = Survey(table, failures={})
    notebook.check_survey(ok)
    broken = Survey(table, failures={"a": "boom", "b": "bang"})
    with pytest.raises(EcwidthError, match="a: boom; b: bang"):
        notebook.check_survey(broken)
    notebook.check_survey(broken, allow_failures=True)


def test_measured_table_reads_a_table_and_restricts_it(tmp_path):
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}, "qwen3-vl-8b-instruct": {"image": 16384}})
    table.to_json(tmp_path / "t.json")
    assert notebook.measured_table("all", width_table=tmp_path / "t.json") == table
    only = notebook.measured_table([DEEPSTACK], width_table=tmp_path / "t.json")
    assert only.models() == [DEEPSTACK]
    with pytest.raises(TableError, match="qwen3-vl-4b-instruct"):
        notebook.measured_table(["qwen3-vl-4b-instruct"], width_table=tmp_path / "t.json")


def test_producer_configs_round_trip_and_catch_tampering(tmp_path):
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}, "qwen3-vl-8b-instruct": {"image": 16384}})
    paths = notebook.write_producer_configs(table, tmp_path / "producer")
    assert [p.name for p in paths] == ["qwen3-vl-2b-instruct.json", "qwen3-vl-8b-instruct.json"]
    assert json.loads(paths[0].read_text()) == {
        "mm_encoder_output_widths": {"image": 8192, "video": 8192},
        "engine": {"name": "vllm", "version": "0.33.0"},
    }
    check = notebook.check_producer_configs(table, paths)
    assert check["round_trip_ok"].all() and len(check) == 3
    assert ecwidth.get_width(json.loads(paths[1].read_text())["mm_encoder_output_widths"], "image") == 16384

    engine = {"name": "vllm", "version": "0.33.0"}
    paths[0].write_text(json.dumps({"mm_encoder_output_widths": {"image": 2048, "video": 8192}, "engine": engine}))
    assert not notebook.check_producer_configs(table, paths)["round_trip_ok"].all()
    paths[0].write_text(json.dumps({"mm_encoder_output_widths": {"image": 8192}, "engine": engine}))
    with pytest.raises(TableError, match="modalities"):
        notebook.check_producer_configs(table, paths)
    paths[0].write_text(json.dumps({"widths": {"image": 8192}}))
    with pytest.raises(TableError, match="mm_encoder_output_widths"):
        notebook.check_producer_configs(table, paths)


def test_producer_configs_of_a_hub_id_are_one_file_each(tmp_path):
    table = WidthTable([toy_row("Acme/Tuned-VL", "image", 8192)])
    (path,) = notebook.write_producer_configs(table, tmp_path)
    assert path == notebook.producer_config_file(tmp_path, "Acme/Tuned-VL") == tmp_path / "Acme--Tuned-VL.json"
    assert notebook.check_producer_configs(table, [path])["model"].tolist() == ["Acme/Tuned-VL"]


@pytest.mark.parametrize(
    ("first", "second", "why"),
    [("acme/vlm", "acme--vlm", "a '/' is written '--'"), ("Acme/VLM", "acme/vlm", "differ only in case")],
    ids=["slash", "case"],
)
def test_two_models_never_share_a_producer_config_file(tmp_path, first, second, why):
    table = WidthTable([toy_row(first, "image", 8192), toy_row(second, "image", 2048)])
    with pytest.raises(TableError) as caught:
        notebook.write_producer_configs(table, tmp_path)
    message = str(caught.value)
    assert repr(first) in message and repr(second) in message and why in message
    assert "Nothing was written" in message
    assert not list(tmp_path.iterdir())  # refused before anything is written


def test_producer_configs_are_for_one_engine_release(tmp_path):
    table = WidthTable([toy_row("toy", "image", 8192), toy_row("toy", "image", 1280, engine="sglang==0.5.23")])
    (path,) = notebook.write_producer_configs(table, tmp_path, engine="sglang")
    assert json.loads(path.read_text()) == {
        "mm_encoder_output_widths": {"image": 1280},
        "engine": {"name": "sglang", "version": "0.5.23"},
    }
    (path,) = notebook.write_producer_configs(table, tmp_path)  # the default release
    assert json.loads(path.read_text())["engine"] == {"name": "vllm", "version": "0.33.0"}


def test_a_model_name_that_cannot_name_a_file_is_refused_before_writing(tmp_path):
    table = WidthTable([toy_row("a" * 300, "image", 8), toy_row("b", "image", 8)])
    with pytest.raises(TableError, match="cannot name a producer config file"):
        notebook.write_producer_configs(table, tmp_path)
    assert not list(tmp_path.iterdir())


def test_producer_configs_refuse_predicted_widths(tmp_path):
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}}, source="predicted")
    with pytest.raises(TableError, match="guess"):
        notebook.write_producer_configs(table, tmp_path)
    assert not list(tmp_path.iterdir())
