"""Forked workers: every item comes back (a value, its error, or that its worker died), and none outlives the run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import warnings

import pytest
import torch

from ecwidth.families.adapter import adapter_for
from ecwidth.measuring.deadline import Terminated, ending_signals_raise
from ecwidth.measuring.survey import resolve_jobs, survey
from ecwidth.measuring.workers import WorkerDied, fork_map
from tests.tiny_configs import tiny_config


def _doubled_unless(item: int) -> int:
    if item == 3:
        os.kill(os.getpid(), signal.SIGKILL)  # a crash: the worker is gone before it answers
    if item == 5:
        raise ValueError("five")
    return 2 * item


def test_every_item_comes_back_with_its_value_its_error_or_its_dead_worker():
    with fork_map(_doubled_unless, list(range(12)), 2) as results:
        outcomes = {item: (value, error) for item, value, error in results}
    assert sorted(outcomes) == list(range(12))
    assert isinstance(outcomes[3][1], WorkerDied) and "SIGKILL" in str(outcomes[3][1])
    assert isinstance(outcomes[5][1], ValueError) and str(outcomes[5][1]) == "five"
    assert all(outcomes[i] == (2 * i, None) for i in range(12) if i not in (3, 5))


def test_the_items_run_in_other_processes_at_once():
    started = time.perf_counter()
    with fork_map(lambda seconds: time.sleep(seconds) or os.getpid(), [0.5] * 4, 4) as results:
        pids = {pid for _, pid, _ in results}
    assert os.getpid() not in pids and len(pids) == 4
    assert time.perf_counter() - started < 1.5  # 2 s one after another


def test_leaving_early_ends_every_worker():
    before = set(_child_processes())  # what other tests left running is not this test's business
    with pytest.raises(KeyboardInterrupt):
        with fork_map(lambda seconds: time.sleep(seconds) or os.getpid(), [0.0, 30.0, 30.0], 3) as results:
            next(results)
            assert len(set(_child_processes()) - before) == 3
            started = time.perf_counter()
            raise KeyboardInterrupt  # Ctrl-C in the parent, with two workers busy and one idle
    assert set(_child_processes()) <= before and time.perf_counter() - started < 5


def _child_processes() -> list[int]:
    me = str(os.getpid())
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == me and fields[0] != "Z":
            found.append(int(pid))
    return found


def _rows(result):
    return [(r.model, r.modality, r.encoder_width, r.config_sha256) for r in result.table.rows]


def test_a_survey_in_workers_gives_the_table_in_this_process_and_keeps_every_failure(monkeypatch):
    def fails(model, modality, item):
        raise RuntimeError("a broken tower")

    monkeypatch.setattr(adapter_for("idefics3"), "encode", fails)  # forked workers inherit it
    models = {
        "tiny-qwen3-vl": tiny_config("qwen3_vl"),
        "refused": {**tiny_config("llava"), "vision_feature_layer": 999},  # refused as its config is read
        "tiny-llava": tiny_config("llava"),
        "broken": tiny_config("idefics3"),
        "tiny-qwen2-audio": tiny_config("qwen2_audio"),
    }
    here = survey(models, device="cpu", dtype="float32", progress=False, jobs=1)
    forked = survey(models, device="cpu", dtype="float32", progress=False, jobs=2)
    assert forked.jobs == 2 and here.jobs == 1
    assert _rows(forked) == _rows(here) and len(_rows(here)) == 4  # qwen3-vl: image and video
    assert list(forked.failures) == list(here.failures) == ["refused", "broken"]
    assert "a broken tower" in forked.failures["broken"]
    assert [c["model"] for c in forked.cost_records] == [c["model"] for c in here.cost_records]


def test_a_worker_s_warnings_are_shown_by_the_parent_with_their_category_where_it_can_cross(monkeypatch):
    adapter = adapter_for("llava")
    encode = adapter.encode
    made_here = type("MadeAtRunTime", (UserWarning,), {})  # pickles by name, and has none

    def warns(model, modality, item):  # runs in a worker
        warnings.warn("a note from the tower", RuntimeWarning)
        warnings.warn("another note from the tower", made_here)
        return encode(model, modality, item)

    monkeypatch.setattr(adapter, "encode", warns)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = survey({"a": tiny_config("llava"), "b": tiny_config("qwen3_vl")}, device="cpu", progress=False, jobs=2)
    assert not result.failures and len(result.cost_records) == 2
    shown = {str(w.message): w.category for w in caught if "from the tower" in str(w.message)}
    assert shown == {"a note from the tower": RuntimeWarning, "another note from the tower": UserWarning}


@pytest.mark.parametrize(
    ("jobs", "device", "dummy", "models", "expected"),
    [
        ("auto", "cpu", "minimal", 1000, len(os.sched_getaffinity(0))),
        ("auto", "cpu", "minimal", 1, 1),
        ("auto", "cpu", "profile", 1000, 1),
        ("auto", "cuda", "minimal", 1000, 1),
        (3, "cpu", "profile", 1000, 3),
    ],
)
def test_jobs_auto_is_one_per_core_for_minimal_items_on_a_cpu(jobs, device, dummy, models, expected):
    assert resolve_jobs(jobs, torch.device(device), dummy, models) == expected


@pytest.mark.parametrize("jobs", [0, -1, 1.5, True, "2", None])
def test_jobs_that_are_no_positive_count_are_refused(jobs):
    with pytest.raises(ValueError, match="positive integer"):
        resolve_jobs(jobs, torch.device("cpu"), "minimal", 5)


def test_jobs_over_one_on_a_gpu_are_refused_before_any_work():
    with pytest.raises(ValueError, match="needs the CPU"):
        resolve_jobs(2, torch.device("cuda"), "minimal", 5)


def test_a_bad_jobs_value_is_refused_before_any_config_is_read(monkeypatch):
    def unread(*args, **kwargs):
        raise AssertionError("a config was read")

    monkeypatch.setattr("ecwidth.measuring.survey.resolve_spec", unread)
    with pytest.raises(ValueError, match="positive integer"):
        survey({"a": tiny_config("llava")}, device="cpu", progress=False, jobs=0)


def test_a_value_that_does_not_pickle_comes_back_as_an_error_naming_it():
    with fork_map(lambda item: lambda: item, [1, 2], 2) as results:  # a closure pickles by name, and has none
        outcomes = list(results)
    assert sorted(item for item, _, _ in outcomes) == [1, 2]
    assert all(value is None and "could not be sent back" in str(error) for _, value, error in outcomes)


def test_one_model_with_jobs_to_spare_is_measured_here_and_says_so():
    result = survey({"a": tiny_config("llava")}, device="cpu", progress=False, jobs=4)
    assert result.jobs == 1 and len(result.cost_records) == 1


# -- being told to stop: SIGTERM, SIGHUP, a parent killed outright -------------------------------------------

#: A process that forks two workers busy for a minute, says their pids, and waits for them.
_FORKS_TWO_BUSY_WORKERS = """
import os, sys, time
from ecwidth.measuring.workers import fork_map

def busy(seconds):
    os.write(1, f"{os.getpid()}\\n".encode())  # the worker's own line, in one write, on the stdout it inherited
    time.sleep(seconds)

with fork_map(busy, [60.0, 60.0], 2) as results:
    list(results)
"""


def _start_forking_two(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-c", _FORKS_TWO_BUSY_WORKERS], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, cwd=tmp_path,
    )  # fmt: skip
    workers = [int(process.stdout.readline()) for _ in range(2)]  # each worker's first line: it runs
    return process, workers


def _gone(pid: int, within: float) -> bool:
    """Whether ``pid`` has ended (or is a zombie no one is left to reap) within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


def _end_group(process):
    """What a failed test left: the process group it started, killed."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=10)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_or_sighup_ends_the_workers_then_the_process_dies_of_it_with_its_pipes_closed(tmp_path, signum):
    process, workers = _start_forking_two(tmp_path)
    try:
        started = time.monotonic()
        process.send_signal(signum)
        out, err = process.communicate(timeout=20)  # EOF on both pipes: no worker holds them any more
        assert time.monotonic() - started < 10
        assert process.returncode == -signum  # the default action, after the cleanup: as if ecwidth were not there
        assert out == b"" and err == b""  # no traceback from the workers or the parent
        assert all(_gone(pid, within=5) for pid in workers)
    finally:
        _end_group(process)


def test_workers_end_with_a_parent_killed_outright(tmp_path):
    process, workers = _start_forking_two(tmp_path)
    try:
        process.kill()  # SIGKILL: no handler, no finally in the parent
        process.wait(timeout=10)
        assert all(_gone(pid, within=10) for pid in workers)  # the kernel ends them (PR_SET_PDEATHSIG)
        assert process.stdout.read() == b""  # and the pipe they inherited closes
    finally:
        _end_group(process)


def test_an_ignored_sighup_stays_ignored_and_a_handler_set_by_others_stays_theirs():
    theirs = signal.signal(signal.SIGTERM, lambda signum, frame: None)
    ignored = signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as under nohup
    try:
        handler = signal.getsignal(signal.SIGTERM)
        with ending_signals_raise():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) is handler
            os.kill(os.getpid(), signal.SIGHUP)  # nothing happens
    finally:
        signal.signal(signal.SIGTERM, theirs)
        signal.signal(signal.SIGHUP, ignored)


def test_a_signal_raises_terminated_once_and_the_default_is_back_after_the_block():
    arrived = []
    with pytest.raises(Terminated) as stopped:
        with ending_signals_raise():
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(1)  # the handler runs before this returns
            finally:
                os.kill(os.getpid(), signal.SIGHUP)  # a second signal during the cleanup is not raised
                arrived.append("cleaned up")
    assert stopped.value.status == 143 and str(stopped.value) == "stopped by SIGTERM"
    assert arrived == ["cleaned up"]
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL and signal.getsignal(signal.SIGHUP) is signal.SIG_DFL


def test_jobs_reported_are_the_workers_started():
    result = survey(
        {"a": tiny_config("llava"), "b": tiny_config("qwen2_audio")}, device="cpu", progress=False, jobs=10000
    )
    assert result.jobs == 2 and len(result.cost_records) == 2
