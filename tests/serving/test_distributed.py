"""measure_across_ranks on 2 and 4 CPU processes over gloo, and its torchrun command.

Starting a rank costs seconds (torch and transformers imports) while a tiny
model builds in well under one, so each launch runs every scenario in turn
on one process group; that a failed scenario leaves the group usable for the
next is part of what is checked. The hang comes last: it breaks the group.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn

from ecwidth.cli.distributed import main
from ecwidth.engines.releases import DEFAULT
from ecwidth.families.adapter import find_adapter
from ecwidth.measuring.build import build_encoder
from ecwidth.measuring.measure import measure
from ecwidth.reading.configs import resolve_spec
from ecwidth.serving.distributed import measure_across_ranks
from tests.tiny_configs import deepstack_width, tiny_qwen3_vl, tiny_text_only

REPO = Path(__file__).resolve().parents[2]
SNAPSHOT = REPO / "tests" / "snapshots" / "internvl_chat"  # a remote-code checkpoint: config.json and its code
#: Far above a tiny build, so a failure seen well before it did not wait for the timeout.
TIMEOUT_S = 60.0
#: Short, so the hang scenario costs little; a tiny build never takes this long.
HANG_TIMEOUT_S = 3.0
#: How long a launch may run before the test calls it a hang.
LAUNCH_DEADLINE_S = 180.0

WIDE = dict.fromkeys(("image", "video"), deepstack_width(tiny_qwen3_vl(levels=2)))
NARROW = dict.fromkeys(("image", "video"), deepstack_width(tiny_qwen3_vl(levels=1)))  # one level fewer


def _build(levels: int) -> nn.Module:
    spec = resolve_spec(tiny_qwen3_vl(levels=levels))
    return build_encoder(find_adapter(spec.model_type), spec.config, device=torch.device("cpu"), dtype=torch.float32)


# -- scenarios: build(rank, world_size), looked up by name in the spawned ranks --


def _agree(rank: int, world_size: int) -> nn.Module:
    return _build(2)


def _pipeline(rank: int, world_size: int) -> nn.Module | None:
    """Two pipeline stages: only the first holds the encoder."""
    return _build(2) if rank < world_size // 2 else None


def _text_only(rank: int, world_size: int) -> None:
    return None


def _disagree(rank: int, world_size: int) -> nn.Module:
    """The last rank was built from a config with one DeepStack level fewer."""
    return _build(1 if rank == world_size - 1 else 2)


def _raise_in_build(rank: int, world_size: int) -> nn.Module:
    if rank == 1:
        raise RuntimeError("injected build failure")
    return _build(2)


def _fail_forward(module: nn.Module, args: Any) -> None:
    raise RuntimeError("injected encode failure")


def _raise_in_encode(rank: int, world_size: int) -> nn.Module:
    """The last rank builds fine, then every module it runs raises."""
    model = _build(2)
    if rank == world_size - 1:
        for module in model.modules():
            module.register_forward_pre_hook(_fail_forward)
    return model


def _hang(rank: int, world_size: int) -> nn.Module:
    """Rank 1 hangs in its build; its own deadline stops it, and every rank names it."""
    if rank == 1:
        time.sleep(LAUNCH_DEADLINE_S)
    return _build(2)


def _misplaced_encoder(rank: int, world_size: int) -> nn.Module | None:
    """One pipeline stage, but rank 1 holds no encoder."""
    return None if rank == 1 else _build(2)


def _die(rank: int, world_size: int) -> nn.Module:
    """Rank 1 dies without raising, as a process killed for memory does."""
    if rank == 1:
        os._exit(1)
    return _build(2)


#: name: (build, pass the default group explicitly, timeout)
SCENARIOS = {
    "agree": (_agree, False, TIMEOUT_S),
    "agree_on_given_group": (_agree, True, TIMEOUT_S),
    "pipeline": (_pipeline, False, TIMEOUT_S),
    "text_only": (_text_only, False, TIMEOUT_S),
    "disagree": (_disagree, False, TIMEOUT_S),
    "raise_in_build": (_raise_in_build, False, TIMEOUT_S),
    "raise_in_encode": (_raise_in_encode, False, TIMEOUT_S),
    "hang": (_hang, False, HANG_TIMEOUT_S),
    "misplaced_encoder": (_misplaced_encoder, False, TIMEOUT_S),
    "die": (_die, False, HANG_TIMEOUT_S),
}


def _rank_main(rank: int, world_size: int, port: int, scenarios: list[str], out_dir: str) -> None:
    """One rank: join the group, run each scenario, and write what it returned or raised."""
    torch.set_num_threads(1)
    store = dist.TCPStore("127.0.0.1", port, is_master=False, timeout=timedelta(seconds=LAUNCH_DEADLINE_S))
    dist.init_process_group("gloo", store=store, rank=rank, world_size=world_size)
    results: dict[str, dict[str, Any]] = {}
    try:
        for name in scenarios:
            build, pass_group, timeout = SCENARIOS[name]
            group = dist.group.WORLD if pass_group else None
            started = time.monotonic()
            encoder_ranks = range(world_size) if name == "misplaced_encoder" else None
            try:
                widths = measure_across_ranks(build, group=group, timeout=timeout, encoder_ranks=encoder_ranks)
                results[name] = {"widths": widths}
            except Exception as error:
                cause = type(error.__cause__).__name__ if error.__cause__ else None
                results[name] = {"error": type(error).__name__, "message": str(error), "cause": cause}
            results[name]["seconds"] = time.monotonic() - started
            Path(out_dir, f"rank{rank}.json").write_text(json.dumps(results))
    finally:
        dist.destroy_process_group()


def _launch(
    out_dir: Path, world_size: int, scenarios: list[str], *, hung: tuple[int, ...] = ()
) -> tuple[list[dict[str, dict[str, Any]]], list[int | None]]:
    """Run ``scenarios`` on ``world_size`` spawned ranks; returns each rank's results and exit code.

    The store listens on 127.0.0.1 only, on a port the OS picked for a socket
    we hold, so parallel launches never race for a port. Ranks in ``hung``
    are expected to hang: they are killed once the others are done.
    """
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    store = dist.TCPStore(  # takes the socket over, and closes it when deleted
        "127.0.0.1", port, is_master=True, wait_for_workers=False, master_listen_fd=listener.detach()
    )
    context = mp.get_context("spawn")
    procs = [
        context.Process(target=_rank_main, args=(rank, world_size, port, scenarios, str(out_dir)), daemon=True)
        for rank in range(world_size)
    ]
    for proc in procs:
        proc.start()
    deadline = time.monotonic() + LAUNCH_DEADLINE_S
    for rank, proc in enumerate(procs):
        if rank not in hung:
            proc.join(max(0.0, deadline - time.monotonic()))
    still_running = [rank for rank, proc in enumerate(procs) if proc.is_alive() and rank not in hung]
    for proc in procs:
        if proc.is_alive():
            proc.kill()
            proc.join()
    del store
    assert not still_running, f"ranks {still_running} still running after {LAUNCH_DEADLINE_S} s: a hang"
    files = [out_dir / f"rank{rank}.json" for rank in range(world_size)]
    results = [json.loads(file.read_text()) if file.exists() else {} for file in files]
    return results, [proc.exitcode for proc in procs]


ORDER = [
    "agree",
    "raise_in_build",  # then a scenario that succeeds: a failure leaves the group usable
    "pipeline",
    "raise_in_encode",
    "agree_on_given_group",
    "disagree",
    "text_only",
    "hang",  # rank 1's own deadline ends its hang: the group stays usable
    "misplaced_encoder",
    "die",  # last: rank 1 is gone and the group broken
]


@pytest.fixture(scope="module", params=[2, 4], ids=lambda n: f"{n}ranks")
def launched(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    world_size = request.param
    results, exitcodes = _launch(tmp_path_factory.mktemp(f"ranks{world_size}"), world_size, ORDER, hung=(1,))
    assert exitcodes[1] == 1  # it died in the last scenario
    assert [code for rank, code in enumerate(exitcodes) if rank != 1] == [0] * (world_size - 1)
    return {"world_size": world_size, "results": results}


def _per_rank(launched: dict[str, Any], scenario: str) -> list[dict[str, Any]]:
    outcomes = [results[scenario] for results in launched["results"]]
    assert len(outcomes) == launched["world_size"]
    return outcomes


@pytest.mark.parametrize("scenario", ["agree", "agree_on_given_group", "pipeline"])
def test_every_rank_returns_the_reconciled_widths(launched: dict[str, Any], scenario: str) -> None:
    assert [outcome.get("widths") for outcome in _per_rank(launched, scenario)] == [WIDE] * launched["world_size"]


def test_no_encoder_on_any_rank_fails_on_every_rank(launched: dict[str, Any]) -> None:
    outcomes = _per_rank(launched, "text_only")
    assert {outcome["error"] for outcome in outcomes} == {"NoEncoderError"}
    assert "could not measure" in outcomes[0]["message"]


def test_disagreement_names_every_rank_and_its_report_on_every_rank(launched: dict[str, Any]) -> None:
    last = launched["world_size"] - 1
    outcomes = _per_rank(launched, "disagree")
    assert {outcome["error"] for outcome in outcomes} == {"WidthDisagreementError"}
    assert len({outcome["message"] for outcome in outcomes}) == 1
    message = outcomes[0]["message"]
    assert f"rank 0: {WIDE}" in message
    assert f"rank {last}: {NARROW}" in message


@pytest.mark.parametrize(
    ("scenario", "failed_rank", "expected", "cause"),
    [
        ("raise_in_build", lambda n: 1, "building its model: RuntimeError: injected build", "RuntimeError"),
        ("raise_in_encode", lambda n: n - 1, "encoding a dummy item: EncodeError: .*injected encode", "EncodeError"),
    ],
)
def test_a_rank_that_raises_fails_every_rank_at_once_and_is_named(
    launched: dict[str, Any], scenario: str, failed_rank: Any, expected: str, cause: str
) -> None:
    world_size = launched["world_size"]
    failed = failed_rank(world_size)
    outcomes = _per_rank(launched, scenario)
    assert {outcome["error"] for outcome in outcomes} == {"RankFailedError"}
    assert len({outcome["message"] for outcome in outcomes}) == 1
    message = outcomes[0]["message"]
    assert re.search(f"rank {failed} failed while {expected}", message), message
    assert f"of {world_size} ranks" in message
    assert all(outcome["seconds"] < TIMEOUT_S / 2 for outcome in outcomes), "a rank waited for the timeout"
    assert outcomes[failed]["cause"] == cause  # the failed rank chains its own exception


def test_a_rank_that_hangs_is_stopped_by_its_deadline_and_named_on_every_rank(launched: dict[str, Any]) -> None:
    outcomes = _per_rank(launched, "hang")
    assert {outcome["error"] for outcome in outcomes} == {"RankFailedError"}
    assert len({outcome["message"] for outcome in outcomes}) == 1
    assert re.search(rf"rank 1 failed while building its model: DeadlineExceeded: .*{HANG_TIMEOUT_S:g} s timeout",
                     outcomes[0]["message"])  # fmt: skip
    assert all(outcome["seconds"] < HANG_TIMEOUT_S + 30 for outcome in outcomes)


def test_a_rank_that_dies_is_named_on_every_surviving_rank(launched: dict[str, Any]) -> None:
    survivors = [results["die"] for rank, results in enumerate(launched["results"]) if rank != 1]
    for outcome in survivors:
        assert outcome["error"] == "RankFailedError"
        assert "rank 1 never reported (last seen building its model)" in outcome["message"], outcome["message"]
        assert outcome["seconds"] < HANG_TIMEOUT_S + 40


def test_a_first_stage_rank_without_the_encoder_is_a_misconfiguration(launched: dict[str, Any]) -> None:
    outcomes = _per_rank(launched, "misplaced_encoder")
    assert {outcome["error"] for outcome in outcomes} == {"RankFailedError"}
    assert "rank(s) 1 hold no encoder although they are in the first pipeline stage" in outcomes[0]["message"]


# -- the torchrun command ------------------------------------------------------


def _torchrun_command(*args: str) -> tuple[list[str], dict[str, str]]:
    """``torchrun --standalone`` (a free port on localhost, picked without a race) on two ranks, and its env."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2"]
    return [*command, "-m", "ecwidth.distributed", *args], env


def _torchrun(*args: str) -> subprocess.CompletedProcess[str]:
    command, env = _torchrun_command(*args)
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=REPO, timeout=LAUNCH_DEADLINE_S)


def test_torchrun_prints_the_widths_measure_gives(tmp_path: Path) -> None:
    config = tmp_path / "tiny-qwen3-vl" / "config.json"
    config.parent.mkdir()
    config.write_text(json.dumps(tiny_qwen3_vl(levels=2)))
    run = _torchrun("--config", str(config), "--json", "--device", "cpu")
    assert run.returncode == 0, run.stderr
    printed = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert len(printed) == 1, run.stdout  # rank 0 only
    assert printed[0] == {
        "model": "tiny-qwen3-vl",
        "model_type": "qwen3_vl",
        "widths": measure(config, device="cpu").widths,
        "world_size": 2,
        "pp_size": 1,
        "engine": {"name": DEFAULT.engine, "version": DEFAULT.version},
    }


def test_torchrun_writes_the_result_to_output_from_rank_0(tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps(tiny_qwen3_vl(levels=1)))
    output = tmp_path / "out" / "widths.json"
    run = _torchrun("--config", str(config), "--json", "--device", "cpu", "-o", str(output))
    assert run.returncode == 0, run.stderr
    assert json.loads(output.read_text())["widths"] == measure(config, device="cpu").widths
    assert not run.stdout.strip() and os.listdir(output.parent) == ["widths.json"]


def test_torchrun_with_trust_remote_code_measures_through_the_checkpoints_own_code(tmp_path: Path) -> None:
    folder = tmp_path / "internvl-chat-tiny"
    shutil.copytree(SNAPSHOT, folder)
    run = _torchrun("--config", str(folder), "--trust-remote-code", "--json", "--device", "cpu")
    assert run.returncode == 0, run.stderr
    printed = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert [p["widths"] for p in printed] == [measure(folder, device="cpu", trust_remote_code=True).widths]


def _ranks_taking_ending_signals(launcher: subprocess.Popen[str], ranks: int) -> list[int]:
    """The pids of the launcher's children once each blocks SIGTERM and SIGHUP (its signal thread is up)."""
    wanted = (1 << (signal.SIGTERM - 1)) | (1 << (signal.SIGHUP - 1))
    deadline = time.monotonic() + LAUNCH_DEADLINE_S
    while time.monotonic() < deadline:
        found = {}
        for entry in os.listdir("/proc"):
            try:
                fields = dict(line.split(":\t", 1) for line in Path(f"/proc/{entry}/status").read_text().splitlines())
            except (OSError, ValueError):
                continue
            if int(fields.get("PPid", "0")) == launcher.pid:
                found[int(entry)] = int(fields["SigBlk"], 16) & wanted == wanted
        if len(found) == ranks and all(found.values()):
            return sorted(found)
        time.sleep(0.02)
    raise AssertionError("the ranks never took their ending signals")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_an_ending_signal_to_one_rank_ends_every_rank_with_its_status_and_the_old_output_stands(
    tmp_path: Path, signum: int
) -> None:
    # As a scheduler stops a job: one rank is signalled while it starts, measures or waits in the rendezvous.
    config = tmp_path / "config.json"
    config.write_text(json.dumps(tiny_qwen3_vl(levels=1)))
    output = tmp_path / "widths.json"
    output.write_text("the old result\n")
    command, env = _torchrun_command("--config", str(config), "--json", "--device", "cpu", "-o", str(output))
    launcher = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
    try:
        first, second = _ranks_taking_ending_signals(launcher, 2)
        os.kill(first, signum)
        signalled = time.monotonic()
        _, stderr = launcher.communicate(timeout=LAUNCH_DEADLINE_S)
    finally:
        launcher.kill()
    assert time.monotonic() - signalled < 30, "the ranks did not end promptly"
    name, status = signal.Signals(signum).name, 128 + signum
    lines = [line for line in stderr.splitlines() if line.startswith("ecwidth.distributed:")]
    assert lines == [f"ecwidth.distributed: stopped by {name}"], stderr  # the rank signalled says why
    reported = re.findall(r"^\s*exitcode\s*:\s*(-?\d+) \(pid: (\d+)\)", stderr, flags=re.MULTILINE)  # torchrun's
    # The rank signalled ends with its signal's status; torchrun's agent stops the other with SIGTERM: 143.
    assert dict((int(pid), int(code)) for code, pid in reported) == {first: status, second: 143}, stderr
    assert output.read_text() == "the old result\n" and sorted(os.listdir(tmp_path)) == ["config.json", "widths.json"]


def test_torchrun_error_is_one_line_on_every_rank(tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps(tiny_text_only()))
    run = _torchrun("--config", str(config), "--json", "--device", "cpu")
    assert run.returncode != 0, run.stdout
    errors = [line for line in run.stderr.splitlines() if line.startswith("ecwidth.distributed: error:")]
    assert len(errors) == 2 and "could not measure" in errors[0], run.stderr
    assert not any(line.startswith("{") for line in run.stdout.splitlines())


@pytest.mark.parametrize(
    ("env", "args", "expected"),
    [
        ({}, ["--model", "qwen3-vl-2b-instruct"], "launch with torchrun"),
        ({"RANK": "0", "WORLD_SIZE": "2"}, ["--model", "qwen3-vl-2b-instruct", "--pp-size", "3"], "does not divide"),
        ({"RANK": "0", "WORLD_SIZE": "2"}, ["--config", "/nonexistent/config.json"], "cannot read"),
        ({"RANK": "0", "WORLD_SIZE": "2"}, ["--model", "qwen3-vl-2b-instruct", "--timeout", "0"], "between 1 s"),
        ({"RANK": "0", "WORLD_SIZE": "2"}, ["--model", "qwen3-vl-2b-instruct", "--timeout", "inf"], "finite"),
        ({"RANK": "0", "WORLD_SIZE": "2"}, ["--model", "qwen3-vl-2b-instruct", "--timeout", "nan"], "finite"),
        ({"RANK": "0", "WORLD_SIZE": "2"}, ["--model", "qwen3-vl-2b-instruct", "--timeout", "1e30"], "a week"),
        ({"RANK": "0", "WORLD_SIZE": "2"}, ["--config", str(SNAPSHOT)], "predicted only"),  # no code runs
    ],
)
def test_bad_launch_is_an_error_before_joining_any_group(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    env: dict[str, str],
    args: list[str],
    expected: str,
) -> None:
    for name in ("RANK", "WORLD_SIZE", "LOCAL_RANK"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(args) == 2
    stderr = capsys.readouterr().err
    assert stderr.startswith("ecwidth.distributed: error:") and expected in stderr
    assert not dist.is_initialized()


def test_a_usage_error_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--model", "qwen3-vl-2b-instruct", "--pp-size", "two"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ecwidth.distributed: error: ") and "'two'" in err
