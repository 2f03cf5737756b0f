"""Faults a CI script or a serving startup meets: signals mid-write, closed pipes, unusable devices."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from ecwidth.cli.commands import main
from ecwidth.measuring.devices import resolve_device, resolve_dtype
from ecwidth.records import atomic


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_a_write_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch, signum):
    target = tmp_path / "widths.json"
    target.write_text("old")
    real_fsync = os.fsync

    def fsync_then_signal(fd):
        real_fsync(fd)
        os.kill(os.getpid(), signum)

    monkeypatch.setattr(atomic.os, "fsync", fsync_then_signal)
    with pytest.raises(KeyboardInterrupt):
        atomic.write_text_atomic(target, "new")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["widths.json"]
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the handler is gone again


def test_ctrl_c_in_a_command_is_one_line_and_status_130(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr("ecwidth.cli.listings.cmd_models", interrupted)
    assert main(["models"]) == 130
    assert capsys.readouterr().err == "ecwidth: interrupted\n"


@pytest.mark.parametrize("command", [["models"], ["models", "--json"]])
def test_a_closed_stdout_ends_quietly(command):
    process = subprocess.Popen(
        [sys.executable, "-m", "ecwidth", *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    process.stdout.close()  # the reader is gone before the first write, as `| head -0` does
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 141
    assert stderr == b""


def test_version_is_printed(capsys):
    from ecwidth import __version__

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"ecwidth {__version__}"


@pytest.mark.parametrize(
    "device, fix", [("mps", "cpu or cuda"), ("xpu", "cpu or cuda"), ("junk", "cuda:N"), ("meta", "cpu or cuda")]
)
def test_devices_ecwidth_cannot_use_are_value_errors_with_the_fix(device, fix):
    with pytest.raises(ValueError, match=fix):
        resolve_device(device)


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without a GPU")
@pytest.mark.parametrize("device", ["cuda", "cuda:1"])
def test_cuda_without_a_gpu_says_to_use_the_cpu(device):
    with pytest.raises(ValueError, match="--device cpu"):
        resolve_device(device)


@pytest.mark.parametrize("dtype", [torch.int8, torch.float64, "float64", "fp8"])
def test_unsupported_dtypes_are_value_errors_listing_the_supported(dtype):
    with pytest.raises(ValueError, match="bfloat16, float16, float32"):
        resolve_dtype(dtype, torch.device("cpu"))


def test_an_export_onto_its_own_input_is_refused(tmp_path, capsys):
    from ecwidth.records.table import WidthTable
    from tests.width_tables import toy_row

    path = tmp_path / "widths.csv"
    WidthTable([toy_row("toy-a", "image", 64)]).to_csv(path)
    before = path.read_bytes()
    assert main(["export", str(path), "--format", "csv", "-o", str(tmp_path / "." / "widths.csv")]) == 2
    assert "input table itself" in capsys.readouterr().err
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "timeout, expected", [("inf", "finite"), ("nan", "finite"), ("0", "between 1 s"), ("1e12", "a week")]
)
def test_out_of_range_timeouts_are_one_error_line(capsys, timeout, expected):
    assert main(["measure", "--model", "qwen3-vl-2b-instruct", "--timeout", timeout]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ecwidth: error: ") and expected in err and err.count("\n") == 1


@pytest.mark.parametrize("stage", ["building the encoder", "encoding the dummy items"])
def test_a_stage_past_its_timeout_ends_naming_the_model_and_the_stage(monkeypatch, stage):
    import importlib
    import time

    from ecwidth.measuring.deadline import DeadlineExceeded
    from tests.tiny_configs import tiny_config

    measuring = importlib.import_module("ecwidth.measuring.measure")  # the module; ecwidth.measure is the function
    slow = "_build" if stage.startswith("building") else "engine_widths"
    real = getattr(measuring, slow)

    def stalled(*args, **kwargs):
        time.sleep(30)
        return real(*args, **kwargs)

    measuring.measure(tiny_config("qwen3_vl"), device="cpu")  # imports paid, so only the stall can take long
    monkeypatch.setattr(measuring, slow, stalled)
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded, match=f"qwen3_vl: {stage} ran past the 3 s timeout"):
        measuring.measure(tiny_config("qwen3_vl"), device="cpu", timeout=3)
    assert time.monotonic() - started < 15


def test_weights_past_the_machine_are_refused_before_any_storage(tmp_path, capsys):
    import json

    from tests.tiny_configs import tiny_config

    config = tiny_config("qwen3_vl")
    config["vision_config"].update(hidden_size=8192, intermediate_size=32768, depth=120, num_heads=64)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    assert main(["measure", "--config", str(path), "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "GiB" in err and "of RAM on this machine" in err and "--max-memory" in err


def test_max_memory_sets_the_limit(tmp_path, capsys):
    import json

    from tests.tiny_configs import tiny_config

    path = tmp_path / "config.json"
    path.write_text(json.dumps(tiny_config("qwen3_vl")))
    assert main(["measure", "--config", str(path), "--device", "cpu", "--max-memory", "1KiB"]) == 2
    assert "set by --max-memory" in capsys.readouterr().err
    assert main(["measure", "--config", str(path), "--device", "cpu", "--max-memory", "1GiB"]) == 0


@pytest.mark.parametrize(
    "command",
    [["models"], ["--help"], ["export", "tables/encoder_widths.json", "--format", "csv"]],
    ids=["models", "help", "export"],
)
def test_a_stdout_closed_from_the_start_ends_as_a_closed_pipe_does(command):
    process = subprocess.run(
        [sys.executable, "-m", "ecwidth", *command], stderr=subprocess.PIPE, timeout=60,
        preexec_fn=lambda: os.close(1),  # `ecwidth ... >&-`: Python starts with sys.stdout None
    )  # fmt: skip
    assert (process.returncode, process.stderr) == (141, b"")


def test_a_write_onto_a_fifo_writes_into_it_and_leaves_the_fifo(tmp_path):
    import threading

    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)  # as /dev/null or /dev/stdout: a node that replacing would turn into a plain file
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    atomic.write_text_atomic(fifo, "new")
    reader.join(timeout=10)
    assert received == ["new"]
    assert fifo.is_fifo() and sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]


def test_torch_errors_are_one_line_without_their_cpp_frames():
    from ecwidth.errors import one_line

    with pytest.raises(TypeError) as caught:
        torch.empty(1, 10**30)
    line = one_line(caught.value)
    assert "\n" not in line and "frame #" not in line and "Overflow when unpacking long long" in line


def _api_calls():
    from ecwidth import WidthTable, get_width, reconcile

    table = "tables/encoder_widths.json"
    return {
        "read-none": lambda: WidthTable.read(None),
        "read-int": lambda: WidthTable.read(5),
        "rows-none": lambda: WidthTable(None),
        "merge-int": lambda: WidthTable.read(table).merge(5),
        "get_width-none": lambda: get_width(None, "image"),
        "get_width-list": lambda: get_width(["image"], "image"),
        "get_width-zero": lambda: get_width({"image": 0}, "image"),
        "get_width-string-width": lambda: get_width({"image": "5"}, "image"),
        "reconcile-none": lambda: reconcile(None),
        "reconcile-int": lambda: reconcile(5),
        "reconcile-past-any-width": lambda: reconcile([{"image": 10**30}]),
    }


@pytest.mark.parametrize("call", sorted(_api_calls()))
def test_the_api_raises_value_errors_for_values_of_the_wrong_type(call):
    from ecwidth.errors import EcwidthError

    with pytest.raises(EcwidthError):
        _api_calls()[call]()


def test_reconcile_takes_any_iterable_of_reports():
    from ecwidth import reconcile

    assert reconcile({"image": 64} for _ in range(2)) == {"image": 64}


@pytest.mark.parametrize("modalities", ["image", "IMAGE", ("image",)])
def test_one_modality_is_one_modality_not_its_letters(modalities):
    from ecwidth import measure
    from tests.tiny_configs import tiny_config

    assert list(measure(tiny_config("qwen3_vl"), modalities, device="cpu").widths) == ["image"]


@pytest.mark.parametrize("limit", [float("nan"), -1, 0, "1GiB", True])
def test_a_max_memory_that_is_no_byte_count_is_refused(limit):
    from ecwidth import measure
    from tests.tiny_configs import tiny_config

    with pytest.raises(ValueError, match="max_memory must be a positive int of bytes"):
        measure(tiny_config("qwen3_vl"), device="cpu", max_memory=limit)


@pytest.mark.parametrize("output", ["", "."], ids=["empty", "folder"])
def test_an_export_onto_a_folder_says_to_name_a_file(tmp_path, monkeypatch, capsys, output):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "widths.json").write_text((Path(__file__).parents[1] / "tables/encoder_widths.json").read_text())
    assert main(["export", "widths.json", "--format", "csv", "-o", output]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a folder; name the file to write" in err


# -- SIGTERM and SIGHUP: one line, the shell's status, no process left, earlier outputs intact -------------------

#: ``ecwidth`` with every llava encode made to say its pid and then stall, so that a signal finds the workers busy.
_ECWIDTH_WITH_STALLED_ENCODES = """
import os, sys, time
from ecwidth.families.adapter import adapter_for

marks = sys.argv[1]

def stalled(model, modality, item):
    open(os.path.join(marks, f"busy-{os.getpid()}"), "w").close()
    time.sleep(120)

adapter_for("llava").encode = stalled  # the forked workers inherit it
sys.argv = ["ecwidth", *sys.argv[2:]]
from ecwidth.cli.commands import run
raise SystemExit(run())
"""


def _busy_workers(marks: Path, count: int, process: subprocess.Popen, within: float = 120) -> list[int]:
    import time

    deadline = time.monotonic() + within
    while time.monotonic() < deadline and process.poll() is None:
        found = [int(path.name.removeprefix("busy-")) for path in marks.glob("busy-*")]
        if len(found) == count:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{count} workers did not start encoding (exit status {process.poll()})")


def _ended(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_or_sighup_on_a_survey_in_workers_ends_them_all_in_one_line(tmp_path, signum, status):
    import json
    import time

    from tests.tiny_configs import tiny_config

    models = []
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "config.json").write_text(json.dumps(tiny_config("llava")))
        models.append(str(tmp_path / name))
    output, marks = tmp_path / "out", tmp_path / "marks"
    output.mkdir()
    marks.mkdir()
    (output / "encoder_widths.json").write_text("an earlier table")
    command = ["survey", "--models", *models, "-o", str(output), "--device", "cpu", "--jobs", "2", "--no-progress"]
    process = subprocess.Popen(
        [sys.executable, "-c", _ECWIDTH_WITH_STALLED_ENCODES, str(marks), *command],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    try:
        workers = _busy_workers(marks, 2, process)
        started = time.monotonic()
        process.send_signal(signum)
        out, err = process.communicate(timeout=30)  # both pipes reach EOF: nothing holds them any more
        assert time.monotonic() - started < 15
        assert process.returncode == status
        assert err.decode().splitlines()[-1:] == [f"ecwidth: stopped by {signal.Signals(signum).name}"]
        assert "Traceback" not in err.decode() and out == b""
        assert all(_ended(pid) for pid in workers)
        assert sorted(p.name for p in output.iterdir()) == ["encoder_widths.json"]  # no half-written table
        assert (output / "encoder_widths.json").read_text() == "an earlier table"
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)  # whatever a failure left behind
        except ProcessLookupError:
            pass
        process.wait(timeout=10)


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_signal_in_any_command_is_one_line_and_the_shell_s_status(monkeypatch, capsys, signum, status):
    import time

    def told_to_stop(args):
        os.kill(os.getpid(), signum)
        time.sleep(5)  # the handler raises before this returns
        raise AssertionError("the signal was not raised")

    monkeypatch.setattr("ecwidth.cli.listings.cmd_models", told_to_stop)
    assert main(["models"]) == status
    assert capsys.readouterr().err == f"ecwidth: stopped by {signal.Signals(signum).name}\n"
    assert signal.getsignal(signum) is signal.SIG_DFL  # the handler is gone again


def test_sigterm_during_a_write_is_the_same_line_and_status(monkeypatch, capsys):
    def told_to_stop_while_writing(args):
        raise atomic.WriteInterrupted("interrupted by signal 15")

    monkeypatch.setattr("ecwidth.cli.listings.cmd_models", told_to_stop_while_writing)
    assert main(["models"]) == 143
    assert capsys.readouterr().err == "ecwidth: stopped by SIGTERM\n"


# -- numbers past any real value: one line on the command line, an ecwidth error in Python ----------------------


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ("image:1" + "0" * 400 + "x1" + "0" * 400, "at most 16777216, past any real item"),
        ("video:1" + "0" * 400 + "x448x448", "at most 5184000, past any real item"),
        ("audio:1e308s", "at most 86400, past any real item"),
        ("image:16777217x448", "at most 16777216, past any real item"),
    ],
    ids=["image-sides", "video-frames", "audio-duration", "side-past-2**24"],
)
def test_item_sizes_past_any_real_item_are_one_error_line_before_any_work(monkeypatch, capsys, item, expected):
    def unmeasured(*args, **kwargs):
        raise AssertionError("measured")

    monkeypatch.setattr("ecwidth.measuring.measure.measure", unmeasured)
    assert main(["size", "qwen3-vl-2b-instruct", "--item", item]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ecwidth: error: ") and expected in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "option", [["--timeout", "1" + "0" * 400], ["--video-pruning-rate", "1" + "0" * 400], ["--timeout", "1e400"]]
)
def test_option_values_past_any_real_value_are_one_error_line(capsys, option):
    assert main(["measure", "--model", "qwen3-vl-2b-instruct", *option]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ecwidth: error: ") and err.count("\n") == 1 and len(err) < 300


@pytest.mark.parametrize(
    "call",
    [
        lambda measure, config: measure(config, device="cpu", timeout=10**400),
        lambda measure, config: measure(config, device="cpu", timeout=-(10**400)),
        lambda measure, config: measure(config, device="cpu", video_pruning_rate=10**400),
        lambda measure, config: measure(config, device="cpu", video_pruning_rate=-(10**400)),
    ],
    ids=["timeout", "negative-timeout", "rate", "negative-rate"],
)
def test_python_values_past_any_real_value_are_ecwidth_errors_not_overflow(call):
    from ecwidth import measure
    from ecwidth.errors import EcwidthError
    from tests.tiny_configs import tiny_config

    with pytest.raises(EcwidthError) as error:
        call(measure, tiny_config("qwen3_vl"))
    assert len(str(error.value)) < 200


def test_an_item_size_past_any_real_item_is_an_ecwidth_error_in_python():
    from ecwidth.errors import EcwidthError
    from ecwidth.families.items import ItemSize
    from ecwidth.serving.sizing import item_tokens

    with pytest.raises(EcwidthError, match="at most"):
        item_tokens("qwen3-vl-2b-instruct", ItemSize("image", height=10**400, width=10**400))


# -- a config no machine could hold: refused from its fields, before the build ----------------------------------


@pytest.mark.parametrize(
    ("vision", "expected"),
    [
        ({"depth": 10**6}, "weights would take at least"),  # the published widths: terabytes
        ({"depth": 10**6, "hidden_size": 16, "intermediate_size": 16, "num_heads": 1}, "1000000 layers"),
    ],
    ids=["terabytes", "narrow-but-deep"],
)
def test_a_config_no_machine_could_hold_is_refused_before_the_build_in_about_a_second(
    tmp_path, monkeypatch, capsys, vision, expected
):
    import json
    import time

    from ecwidth.measuring import build
    from ecwidth.reading.catalog import catalog_entry

    config = json.loads(json.dumps(catalog_entry("qwen3-vl-2b-instruct").config))
    config["vision_config"].update(vision)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    main(["predict", "--config", str(path)])  # the config reads, and predicts: the reading is paid here
    capsys.readouterr()

    def unbuilt(*args, **kwargs):
        raise AssertionError("the build started")

    monkeypatch.setattr(build.FamilyAdapter, "construct", unbuilt)
    started = time.monotonic()
    assert main(["measure", "--config", str(path), "--device", "cpu"]) == 2
    assert time.monotonic() - started < 3
    err = capsys.readouterr().err
    assert err.startswith("ecwidth: error: ") and err.count("\n") == 1 and expected in err
    if expected.startswith("weights"):
        assert "of RAM on this machine" in err and "--max-memory" in err and "1000000 layers" in err
    else:
        assert "at most 4096" in err
