"""``--trust-remote-code``: a remote-code family measured through the checkpoint's own code, and only then.

``tests/snapshots/internvl_chat`` is a checkpoint folder as a user holds it: ``config.json`` in InternVL's
chat schema and the code files its ``auto_map`` names (a tiny stand-in written for these tests). Each test works
on a copy, so a test may edit the code and see the measurement follow it.
"""

import json
import shutil
import warnings
from pathlib import Path

import pytest

from ecwidth.cli.commands import main
from ecwidth.errors import ConfigError, UnmeasurableError
from ecwidth.measuring.deadline import DeadlineExceeded
from ecwidth.measuring.measure import measure
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config

SNAPSHOT = Path(__file__).parents[1] / "snapshots" / "internvl_chat"


@pytest.fixture
def checkpoint(tmp_path: Path) -> Path:
    folder = tmp_path / "internvl-chat-tiny"
    shutil.copytree(SNAPSHOT, folder)
    return folder


def llm_hidden(folder: Path) -> int:
    return json.loads((folder / "config.json").read_text())["llm_config"]["hidden_size"]


def _edit_auto_map(folder: Path, **entries: str | None) -> None:
    config = json.loads((folder / "config.json").read_text())
    for auto_class, code in entries.items():
        if code is None:
            del config["auto_map"][auto_class]
        else:
            config["auto_map"][auto_class] = code
    (folder / "config.json").write_text(json.dumps(config))


def test_with_the_flag_the_checkpoints_code_is_built_and_measured(checkpoint):
    spec = resolve_spec(checkpoint, trust_remote_code=True)
    assert spec.runs_snapshot_code and type(spec.config).__module__.startswith("transformers_modules.")
    result = measure(spec, device="cpu", progress=False)
    width = llm_hidden(checkpoint)
    assert result.widths == {"image": width, "video": width} == result.predicted
    assert result.as_json()["built_from"] == "checkpoint"
    assert width != json.loads((checkpoint / "config.json").read_text())["vision_config"]["hidden_size"]


def test_the_width_is_what_the_code_ships_not_the_rule(checkpoint, tmp_path):
    """Widen the snapshot's last projector layer: the measurement follows the code, and says it disagrees, even
    after a checkpoint in a folder of the same name, with the same configuration code, was built in this process
    (``AutoModel.from_config`` would reuse that one's class)."""
    first = shutil.copytree(SNAPSHOT, tmp_path / "first" / checkpoint.name)
    assert measure(first, device="cpu", trust_remote_code=True).widths["image"] == llm_hidden(first)
    modeling = checkpoint / "modeling_internvl_chat.py"
    modeling.write_text(modeling.read_text().replace("nn.Linear(llm_hidden, llm_hidden)", "nn.Linear(llm_hidden, 56)"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = measure(resolve_spec(checkpoint, trust_remote_code=True), device="cpu", progress=False)
    assert result.widths == {"image": 56, "video": 56}
    assert result.predicted == {"image": llm_hidden(checkpoint), "video": llm_hidden(checkpoint)}
    assert any("measured image width 56 but the config predicts" in str(w.message) for w in caught)


def test_without_the_flag_no_code_runs_and_the_rule_answers(checkpoint):
    (checkpoint / "modeling_internvl_chat.py").write_text("raise RuntimeError('remote code ran')\n")
    (checkpoint / "configuration_internvl_chat.py").write_text("raise RuntimeError('remote code ran')\n")
    spec = resolve_spec(checkpoint)
    assert not spec.runs_snapshot_code
    assert predict_widths(spec) == {"image": llm_hidden(checkpoint), "video": llm_hidden(checkpoint)}
    with pytest.raises(UnmeasurableError, match="predicted only .* with --trust-remote-code"):
        measure(spec, device="cpu", progress=False)


def test_a_measurement_says_whose_code_built_the_encoder(checkpoint, capsys):
    assert main(["measure", "--config", str(checkpoint), "--trust-remote-code", "--device", "cpu"]) == 0
    assert "built from the checkpoint's own code" in capsys.readouterr().out.splitlines()[0]
    native = SNAPSHOT.parents[1] / "tiny" / "qwen2_vl.json"
    assert main(["measure", "--config", str(native), "--device", "cpu", "--json"]) == 0
    assert "built_from" not in json.loads(capsys.readouterr().out)  # transformers' classes: the default, unsaid


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda folder: (folder / "modeling_internvl_chat.py").unlink(),
         "auto_map names modeling_internvl_chat.py, which .* does not hold; put the checkpoint's code files"),
        (lambda folder: _edit_auto_map(folder, AutoModel="OpenGVLab/InternVL3-8B--modeling_internvl_chat.X"),
         r"names code in another hub repository \(OpenGVLab/InternVL3-8B\), which ecwidth never fetches"),
        (lambda folder: _edit_auto_map(folder, AutoModel=None), "auto_map has no AutoModel entry"),
        (lambda folder: (folder / "configuration_internvl_chat.py").write_text("raise ImportError('no flash_attn')\n"),
         "the checkpoint's configuration code failed: .*no flash_attn"),
    ],
)  # fmt: skip
def test_a_checkpoint_whose_code_cannot_be_loaded_is_one_error_line(checkpoint, capsys, change, says):
    change(checkpoint)
    with pytest.raises(ConfigError, match=says):
        resolve_spec(checkpoint, trust_remote_code=True)
    assert main(["measure", "--config", str(checkpoint), "--trust-remote-code", "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ecwidth: error: ") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("import a_package_not_installed\n", "requires the following packages .*a_package_not_installed"),
        ("raise RuntimeError('FlashAttention2 is not installed')\n", "RuntimeError: FlashAttention2"),
    ],
)
def test_modelling_code_that_cannot_run_here_is_one_error_line_that_says_what_to_do(checkpoint, capsys, code, says):
    modeling = checkpoint / "modeling_internvl_chat.py"
    modeling.write_text(code + modeling.read_text())
    with pytest.raises(ConfigError, match=f"modelling code could not build the model: .*{says}"):
        measure(checkpoint, device="cpu", trust_remote_code=True)
    assert main(["measure", "--config", str(checkpoint), "--trust-remote-code", "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ecwidth: error: ") and err.count("\n") == 1 and "leave out --trust-remote-code" in err


def test_profile_items_and_sizing_go_through_the_checkpoints_code_too(checkpoint, capsys):
    spec = resolve_spec(checkpoint, trust_remote_code=True)
    width = llm_hidden(checkpoint)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # profile items on a CPU are warned about
        assert measure(spec, device="cpu", dummy="profile", progress=False).widths == {"image": width, "video": width}
    assert main(["size", str(checkpoint), "--trust-remote-code", "--device", "cpu", "--item", "image:448x448",
                 "--json"]) == 0  # fmt: skip
    sized = json.loads(capsys.readouterr().out)["modalities"]["image"]
    assert sized["width"] == width and sized["items"][0]["tokens"] > 0


def test_a_survey_measures_a_trusted_checkpoint_and_answers_an_untrusted_one_by_rule(checkpoint, tmp_path):
    width = llm_hidden(checkpoint)
    for flag, source in (["--trust-remote-code"], "measured"), ([], "predicted"):
        output = tmp_path / f"survey-{source}"
        args = ["survey", "--models", str(checkpoint), "-o", str(output), "--device", "cpu", "--no-progress", *flag]
        assert main(args) == 0
        rows = json.loads((output / "encoder_widths.json").read_text())["rows"]
        assert {(row["modality"], row["encoder_width"], row["source"]) for row in rows} == {
            ("image", width, source),
            ("video", width, source),
        }


def test_a_deadline_that_expires_inside_the_checkpoints_code_is_reported_as_the_deadline(checkpoint):
    modeling = checkpoint / "modeling_internvl_chat.py"
    modeling.write_text("import time\n\ntime.sleep(30)\n" + modeling.read_text())
    with pytest.raises(DeadlineExceeded, match="building the encoder"):
        measure(checkpoint, device="cpu", trust_remote_code=True, timeout=2)


def test_trusting_a_family_ecwidth_has_no_way_into_says_so_and_names_those_it_has(tmp_path, capsys):
    folder = tmp_path / "minicpmv-tiny"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(tiny_config("minicpmv")))
    with pytest.raises(UnmeasurableError, match="no way into this family's own modelling code .*internvl_chat, molmo"):
        measure(folder, device="cpu", trust_remote_code=True)
    assert main(["measure", "--config", str(folder), "--trust-remote-code", "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ecwidth: error: ") and err.count("\n") == 1 and "`ecwidth predict`" in err
