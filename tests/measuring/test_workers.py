"""Forked workers: every item comes back (a value, its error, or that its worker died), and none outlives the run."""

from __future__ import annotations

import os
import signal
import time
import warnings

import pytest
import torch
from tiny_configs import tiny_config

from ecwidth.families.adapter import adapter_for
from ecwidth.measuring.survey import resolve_jobs, survey
from ecwidth.measuring.workers import WorkerDied, fork_map


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
