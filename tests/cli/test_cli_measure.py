"""`ecwidth measure / predict / models / survey` as a user runs them, with clear errors."""

import json
import subprocess
import sys
import warnings

import pytest

from ecwidth.cli.commands import main
from ecwidth.reading.catalog import catalog_names
from tests.tiny_configs import deepstack_width, tiny_config, tiny_qwen3_vl, tiny_text_only


@pytest.fixture
def write_config(tmp_path):
    def write(config: dict, name: str = "config.json"):
        path = tmp_path / name
        path.write_text(json.dumps(config))
        return path

    return write


@pytest.mark.parametrize("levels", [0, 1, 3])
def test_measure_json_tracks_the_deepstack_depth(write_config, capsys, levels):
    config = tiny_qwen3_vl(levels=levels)
    assert main(["measure", "--config", str(write_config(config)), "--device", "cpu", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    width = config["vision_config"]["out_hidden_size"] * (1 + levels)
    assert printed["widths"] == {"image": width, "video": width}
    assert printed["predicted"] == printed["widths"]
    assert printed["lm_hidden_size"] == config["text_config"]["hidden_size"]
    assert set(printed) == {
        "model", "model_type", "lm_hidden_size", "widths", "predicted", "dummy", "device", "dtype", "engine"
    }  # fmt: skip


def test_measure_accepts_a_folder_and_one_modality(write_config, capsys):
    path = write_config(tiny_qwen3_vl())
    assert main(["measure", "--config", str(path.parent), "--modality", "video", "--json"]) == 0
    assert list(json.loads(capsys.readouterr().out)["widths"]) == ["video"]


def test_predict_json_has_no_measurement_keys(write_config, capsys):
    config = tiny_qwen3_vl(levels=2)
    assert main(["predict", "--config", str(write_config(config)), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert set(printed) == {"model", "model_type", "lm_hidden_size", "predicted", "engine"}
    assert printed["predicted"]["image"] == deepstack_width(config)


def _error(capsys) -> str:
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("ecwidth: error: ")
    return captured.err


def test_text_only_model_has_no_multimodal_encoder(write_config, capsys):
    assert main(["measure", "--config", str(write_config(tiny_text_only()))]) == 2
    assert "no multimodal encoder" in _error(capsys)


def test_text_only_model_gives_empty_widths_from_the_api():
    import ecwidth

    assert ecwidth.measure(tiny_text_only(), device="cpu").widths == {}
    assert ecwidth.predict_widths(tiny_text_only()) == {}


def test_an_unknown_multimodal_model_type_points_to_the_family_list(write_config, capsys):
    config = {"model_type": "llava_nxt", "vision_config": {}, "text_config": {}}
    assert main(["measure", "--config", str(write_config(config))]) == 2
    error = _error(capsys)
    assert "closest: llava_next" in error and "ecwidth models --families" in error and len(error) < 300


def test_missing_field_is_named(write_config, capsys):
    """A required field that neither the file nor its config class gives (Inkling2's merger width) is named."""
    config = tiny_config("inkling2")
    del config["vision_config"]["text_hidden_size"]
    assert main(["measure", "--config", str(write_config(config))]) == 2
    assert "vision_config.text_hidden_size" in _error(capsys)


def test_remote_code_is_refused_unless_asked(write_config, capsys):
    config = {"model_type": "remote_only_vlm", "vision_config": {}, "auto_map": {"AutoModel": "modeling_x.XModel"}}
    assert main(["measure", "--config", str(write_config(config))]) == 2
    assert "--trust-remote-code" in _error(capsys)


def test_auto_map_beside_a_native_model_type_uses_the_native_classes(write_config, capsys, monkeypatch):
    monkeypatch.setattr(
        "ecwidth.reading.configs._NATIVE_NOTED", set()
    )  # said once per process: make this the first time
    config = {**tiny_qwen3_vl(), "auto_map": {"AutoModel": "modeling_x.XModel"}}
    with pytest.warns(UserWarning, match="natively"):
        assert main(["predict", "--config", str(write_config(config)), "--json"]) == 0
    vision = config["vision_config"]
    expected = vision["out_hidden_size"] * (1 + len(vision["deepstack_visual_indexes"]))
    assert json.loads(capsys.readouterr().out)["predicted"]["image"] == expected
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        assert main(["predict", "--config", str(write_config(config)), "--json"]) == 0
    assert not [w for w in again if "natively" in str(w.message)]  # said once per process


def test_an_auto_map_that_is_not_an_object_is_named(write_config, capsys):
    config = {**tiny_qwen3_vl(), "auto_map": ["modeling_x.XModel"]}
    assert main(["predict", "--config", str(write_config(config))]) == 2
    assert "auto_map" in _error(capsys)


@pytest.mark.parametrize("content", [None, "{not json", "[1, 2]"])
def test_unreadable_or_invalid_config_path(tmp_path, capsys, content):
    path = tmp_path / "config.json"
    if content is not None:
        path.write_text(content)
    assert main(["measure", "--config", str(path)]) == 2
    assert str(path) in _error(capsys)


def test_unknown_catalog_name_suggests_close_ones(capsys):
    assert main(["predict", "--model", "qwen3-vl-8b"]) == 2
    assert "qwen3-vl-8b-instruct" in _error(capsys)


def test_encoder_failure_names_the_modality(write_config, capsys, monkeypatch):
    from ecwidth.families.qwen3_vl import Qwen3VLAdapter

    def fail(self, model, modality, item):
        raise RuntimeError("out of memory")

    monkeypatch.setattr(Qwen3VLAdapter, "encode", fail)
    assert main(["measure", "--config", str(write_config(tiny_qwen3_vl())), "--dummy", "profile"]) == 2
    warning, error = capsys.readouterr().err.splitlines()
    assert warning.startswith("ecwidth: warning: ") and "16384 tokens" in warning  # up front, before the work
    assert error.startswith("ecwidth: error: ") and "'image'" in error and "--dummy minimal" in error


def test_models_lists_the_catalog(capsys):
    assert main(["models", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [entry["name"] for entry in listed] == catalog_names()


def test_bad_input_exits_nonzero_without_traceback(tmp_path):
    process = subprocess.run(
        [sys.executable, "-m", "ecwidth", "measure", "--config", str(tmp_path / "missing.json")],
        capture_output=True,
        text=True,
    )
    assert process.returncode == 2
    assert "Traceback" not in process.stderr and "cannot read" in process.stderr


def test_a_prediction_that_misses_is_a_warning_and_a_flag_in_the_row(write_config, capsys, monkeypatch):
    """The trap measuring exists for: sizing from `out_hidden_size` alone, without DeepStack."""
    import ecwidth
    from ecwidth.families.qwen3_vl import Qwen3VLAdapter
    from ecwidth.measuring.survey import rows_from_result

    config = tiny_qwen3_vl(levels=3)
    naive = config["vision_config"]["out_hidden_size"]
    monkeypatch.setattr(Qwen3VLAdapter, "predict", lambda self, cfg: {"image": naive, "video": naive})
    with pytest.warns(ecwidth.WidthMismatchWarning, match="predicts 96"):
        result = ecwidth.measure(config, device="cpu")
    assert result.mismatches == {"image": (4 * naive, naive), "video": (4 * naive, naive)}
    rows = rows_from_result(result, measured_at="2026-01-01T00:00:00+00:00")
    assert [(row.encoder_width, row.predicted_width, row.matches_prediction) for row in rows] == [
        (4 * naive, naive, False)
    ] * 2
    assert main(["measure", "--config", str(write_config(config))]) == 0
    captured = capsys.readouterr()
    assert "MISMATCH" in captured.out and "ecwidth: warning:" in captured.err


def test_ecwidth_and_the_distributed_command_share_their_model_options():
    from ecwidth.cli import distributed, options
    from ecwidth.cli.parser import build_parser
    from ecwidth.measuring.devices import DTYPES

    assert options.DTYPES == ("auto", *DTYPES)  # every dtype resolve_dtype takes, and only those
    argv = ["--config", "c.json", "--device", "cpu", "--dtype", "bfloat16", "--trust-remote-code", "--json"]
    ours = build_parser().parse_args(["measure", *argv])
    theirs = distributed.build_parser().parse_args(argv)
    for args in (ours, theirs):
        assert (options.model_source(args), args.device, args.dtype, args.trust_remote_code, args.json) == (
            "c.json", "cpu", "bfloat16", True, True
        )  # fmt: skip
