"""``--engine`` as a user gives it: the answer names its engine, keys follow it, and what it cannot serve is said."""

import json

import pytest

from ecwidth.cli.commands import main
from ecwidth.engines.releases import DEFAULT, RELEASES
from ecwidth.families.adapter import supported_model_types
from ecwidth.reading.catalog import catalog_entry
from ecwidth.records.table import WidthTable
from tests.tiny_configs import deepstack_width, tiny_config, tiny_qwen3_vl


@pytest.fixture
def config_file(tmp_path):
    def write(config: dict, name: str = "config.json"):
        path = tmp_path / name
        path.write_text(json.dumps(config))
        return str(path)

    return write


def _json(capsys) -> dict:
    return json.loads(capsys.readouterr().out)


def _error(capsys) -> str:
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("ecwidth: error: ") and captured.err.count("\n") == 1
    return captured.err


def test_engines_lists_every_release_its_pin_and_the_default(capsys):
    assert main(["engines", "--json"]) == 0
    rows = _json(capsys)
    assert [(row["name"], row["version"], row["transformers"]) for row in rows] == [
        (r.engine, r.version, r.transformers) for r in RELEASES
    ]
    assert [row["key"] for row in rows if row["default"]] == [DEFAULT.key]
    assert main(["engines"]) == 0
    assert "(default)" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["measure", "predict"])
def test_json_names_the_engine_the_widths_are_for(config_file, capsys, command):
    config = tiny_qwen3_vl(levels=2)
    assert main([command, "--config", config_file(config), "--engine", "vllm==0.32.0", "--json"]) == 0
    printed = _json(capsys)
    assert printed["engine"] == {"name": "vllm", "version": "0.32.0"}
    widths = printed.get("widths", printed["predicted"])
    assert widths == {"image": deepstack_width(config), "video": deepstack_width(config)}


def test_without_engine_the_answer_is_for_the_newest_vllm(config_file, capsys):
    assert main(["predict", "--config", config_file(tiny_qwen3_vl()), "--json"]) == 0
    assert _json(capsys)["engine"] == {"name": DEFAULT.engine, "version": DEFAULT.version}


@pytest.mark.parametrize("engine", ["tgi", "vllm==0.31.0", "sglang==0.4"])
def test_an_unknown_engine_is_one_usage_error_naming_the_known_ones(config_file, capsys, engine):
    with pytest.raises(SystemExit) as exited:
        main(["predict", "--config", config_file(tiny_qwen3_vl()), "--engine", engine])
    assert exited.value.code == 2
    message = _error(capsys)
    assert all(r.key in message for r in RELEASES)


def test_sglang_sizes_qwen2_audio_from_d_model_and_warns_that_every_audio_request_fails(capsys):
    d_model = catalog_entry("qwen2-audio-7b-instruct").config["audio_config"]["d_model"]
    assert main(["measure", "--model", "qwen2-audio-7b-instruct", "--engine", "sglang==0.5.23", "--json"]) == 0
    captured = capsys.readouterr()
    printed = json.loads(captured.out)
    assert printed["engine_sizes"] == {"audio": d_model}
    assert printed["widths"]["audio"] != d_model  # the tower ships the projector's width
    warning = [line for line in captured.err.splitlines() if line.startswith("ecwidth: warning:")]
    assert len(warning) == 1 and str(d_model) in warning[0] and str(printed["widths"]["audio"]) in warning[0]


def test_kimi_ships_under_the_engines_own_key(capsys):
    text_hidden = catalog_entry("kimi-k2-5").config["text_config"]["hidden_size"]
    assert main(["predict", "--model", "kimi-k2-5", "--json"]) == 0
    assert _json(capsys)["predicted"] == {"vision_chunk": text_hidden}
    assert main(["predict", "--model", "kimi-k2-5", "--engine", "sglang==0.5.23", "--json"]) == 0
    assert _json(capsys)["predicted"] == {"image": text_hidden}


def test_a_model_type_the_engine_does_not_serve_is_one_error(capsys):
    assert main(["measure", "--model", "gemma-3-4b-it", "--engine", "sglang==0.5.23"]) == 2
    assert "does not serve" in _error(capsys)


def test_a_backend_family_newer_than_the_engines_transformers_pin_is_not_servable(config_file, capsys):
    assert main(["predict", "--config", config_file(tiny_config("granite_docling")), "--engine", "vllm==0.33.0"]) == 2
    message = _error(capsys)
    assert "does not serve" in message and "<5.21.0" in message


def test_sglang_takes_no_video_pruning(config_file, capsys):
    path = config_file(tiny_qwen3_vl())
    assert main(["predict", "--config", path, "--video-pruning-rate", "0.5", "--json"]) == 0
    assert _json(capsys)["predicted"]["image"] == deepstack_width(tiny_qwen3_vl()) + 5  # vLLM's EVS channels
    assert main(["predict", "--config", path, "--engine", "sglang", "--video-pruning-rate", "0.5"]) == 2
    assert "video_pruning_rate" in _error(capsys)


def test_a_survey_under_sglang_records_its_engine_and_lists_what_it_leaves_out(tmp_path, capsys):
    out = tmp_path / "survey"
    status = main([
        "survey", "--models", "qwen2-audio-7b-instruct", "gemma-3-4b-it", "--engine", "sglang==0.5.23",
        "--jobs", "1", "--no-progress", "-o", str(out),
    ])  # fmt: skip
    assert status == 0
    err = capsys.readouterr().err
    table = WidthTable.read(out / "encoder_widths.json")
    assert {(row.model, row.engine, row.engine_version) for row in table} == {
        ("qwen2-audio-7b-instruct", "sglang", "0.5.23")
    }
    assert "left out gemma-3-4b-it" in err


def test_survey_merge_keeps_one_model_under_two_engines_side_by_side(tmp_path, capsys):
    """Kimi-K2.5 under vLLM (``vision_chunk``) and SGLang (``image``) in one table; look-ups pick by engine."""
    out = tmp_path / "survey"
    for engine in ("vllm==0.33.0", "sglang==0.5.23"):
        args = ["survey", "--models", "kimi-k2-5", "--engine", engine, "--jobs", "1", "--no-progress"]
        assert main([*args, "--merge", "-o", str(out)]) == 0
    capsys.readouterr()
    table = str(out / "encoder_widths.json")
    rows = WidthTable.read(table)
    assert sorted((row.engine, row.engine_version, row.modality) for row in rows) == [
        ("sglang", "0.5.23", "image"),
        ("vllm", "0.33.0", "vision_chunk"),
    ]
    text_hidden = catalog_entry("kimi-k2-5").config["text_config"]["hidden_size"]
    assert main(["lookup", table, "kimi-k2-5", "image", "--engine", "sglang", "--json"]) == 0
    assert _json(capsys) == {
        "model": "kimi-k2-5", "modality": "image", "width": text_hidden, "engine": {"name": "sglang", "version": "0.5.23"}
    }  # fmt: skip
    assert main(["lookup", table, "kimi-k2-5", "image", "--engine", "vllm"]) == 2
    assert "vision_chunk" in _error(capsys)
    assert main(["export", table, "--model", "kimi-k2-5", "--format", "producer-json", "--engine", "sglang"]) == 0
    assert json.loads(capsys.readouterr().out)["engine"] == {"name": "sglang", "version": "0.5.23"}


def test_models_families_lists_each_release_facts_and_the_033_architectures(capsys):
    assert main(["models", "--families", "--json"]) == 0
    newest = {row["model_type"]: row for row in _json(capsys)}
    assert main(["models", "--families", "--json", "--engine", "vllm==0.32.0"]) == 0
    older = {row["model_type"]: row for row in _json(capsys)}
    assert set(newest) == set(older) == set(supported_model_types())
    assert all(row["engine"] == {"name": "vllm", "version": DEFAULT.version} for row in newest.values())
    for model_type in ("alpamayo2_super", "step5_vl"):  # architectures vLLM 0.33 added
        assert newest[model_type]["serves"] and not older[model_type]["serves"], model_type
    for row in newest.values():
        assert row["serves"] == bool(row["classes"]) or not row["serves"], row["model_type"]
        assert row["serves"] or row["why_not"], row["model_type"]
    assert main(["models", "--families", "--engine", "sglang==0.5.23"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0].startswith("MODEL TYPE") and "SGLang 0.5.23" in text.splitlines()[0]


def test_engines_architectures_answers_every_registry_entry_of_every_release(capsys):
    from ecwidth.engines import registry

    assert main(["engines", "--architectures", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {(row["engine"], row["architecture"]) for row in rows} == {
        (release.key, architecture) for release in RELEASES for architecture in registry.entries(release)
    }
    for row in rows:
        assert {"engine", "architecture", "model_type", "served", "modalities"} <= set(row)
        if row["served"]:
            assert row["modalities"] and set(row["answered_by"]) == set(row["modalities"]) and "why_not" not in row
        else:
            assert row["why_not"] and not row["modalities"]


def test_engines_architectures_for_one_release_says_how_each_modality_is_answered(capsys):
    assert main(["engines", "--architectures", "--engine", "sglang==0.5.23", "--json"]) == 0
    rows = {row["architecture"]: row for row in json.loads(capsys.readouterr().out)}
    assert {row["engine"] for row in rows.values()} == {"sglang==0.5.23"}
    kimi = rows["KimiK25ForConditionalGeneration"]  # SGLang ships Kimi-K2.5's vision_chunk under "image"
    assert kimi["served"] and kimi["modalities"] == ["image"] and kimi["answered_by"] == {"image": "measured"}
    assert not rows["Qwen3OmniMoeThinkerForConditionalGeneration"]["served"]


def test_engines_architectures_as_text_heads_each_release_with_its_count(capsys):
    assert main(["engines", "--architectures", "--engine", "vllm==0.32.0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("vLLM 0.32.0: ") and out[0].endswith(" architectures served")
    assert any("not served: " in line for line in out[1:])
