"""record_producer_widths against a fake engine: a pool of worker processes behind ``collective_rpc``.

As in a serving engine, each worker process builds its model once and then
runs whatever function ``collective_rpc`` sends it; the function and its
result cross process boundaries by pickling.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable
from multiprocessing.connection import Connection
from types import SimpleNamespace
from typing import Any

import pytest
import torch

from ecwidth.engines.releases import DEFAULT
from ecwidth.engines.runtime import RuntimeOptions
from ecwidth.errors import EcwidthError, NoEncoderError, WidthDisagreementError
from ecwidth.families.adapter import find_adapter
from ecwidth.measuring.build import build_encoder
from ecwidth.reading.configs import resolve_spec
from ecwidth.serving.producer import measure_on_worker, record_producer_widths
from tests.tiny_configs import deepstack_width, tiny_qwen3_vl

RPC_TIMEOUT_S = 180.0
WIDE = dict.fromkeys(("image", "video"), deepstack_width(tiny_qwen3_vl(levels=2)))
NARROW = dict.fromkeys(("image", "video"), deepstack_width(tiny_qwen3_vl(levels=1)))  # one level fewer
NO_MODEL = "no model attribute"

#: Per scenario, what each of two workers holds: DeepStack levels, None (no encoder), or NO_MODEL.
LAYOUTS: dict[str, list[Any]] = {
    "agree": [2, 2],
    "first_stage_only": [2, None],
    "disagree": [2, 1],
    "no_encoder": [None, None],
    "not_a_worker": [2, NO_MODEL],
}


def _worker_for(held: Any, built: dict[int, Any]) -> SimpleNamespace:
    if held == NO_MODEL:
        return SimpleNamespace()
    if held is None:
        return SimpleNamespace(model=None)
    if held not in built:
        spec = resolve_spec(tiny_qwen3_vl(levels=held))
        adapter = find_adapter(spec.model_type)
        built[held] = build_encoder(adapter, spec.config, device=torch.device("cpu"), dtype=torch.float32)
    return SimpleNamespace(model=built[held])


def _serve(rank: int, conn: Connection) -> None:
    """A worker process: build this rank's worker for every scenario, then run what it is sent."""
    torch.set_num_threads(1)
    built: dict[int, Any] = {}
    workers = {scenario: _worker_for(layout[rank], built) for scenario, layout in LAYOUTS.items()}
    while (request := conn.recv()) is not None:
        scenario, fn = request
        try:
            conn.send((True, fn(workers[scenario])))
        except Exception as error:  # an engine passes worker errors back to the caller
            conn.send((False, error))


class FakeWorkerPool:
    """Worker processes; ``rpc(scenario)`` is the ``collective_rpc`` of one scenario's layout."""

    def __init__(self, size: int) -> None:
        context = mp.get_context("spawn")
        self._conns: list[Connection] = []
        self._procs = []
        for rank in range(size):
            parent, child = context.Pipe()
            proc = context.Process(target=_serve, args=(rank, child), daemon=True)
            proc.start()
            self._conns.append(parent)
            self._procs.append(proc)

    def rpc(self, scenario: str) -> Callable[[Callable[[Any], Any]], list[Any]]:
        def collective_rpc(fn: Callable[[Any], Any]) -> list[Any]:
            for conn in self._conns:
                conn.send((scenario, fn))
            results = []
            for rank, conn in enumerate(self._conns):
                assert conn.poll(RPC_TIMEOUT_S), f"worker {rank} did not answer within {RPC_TIMEOUT_S} s"
                ok, value = conn.recv()
                if not ok:
                    raise value
                results.append(value)
            return results

        return collective_rpc

    def close(self) -> None:
        for conn in self._conns:
            conn.send(None)
        for proc in self._procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()


@pytest.fixture(scope="module")
def pool() -> Any:
    workers = FakeWorkerPool(len(next(iter(LAYOUTS.values()))))
    yield workers
    workers.close()


def producer_config(is_producer: bool = True) -> SimpleNamespace:
    return SimpleNamespace(ec_transfer_config=SimpleNamespace(is_ec_producer=is_producer, mm_encoder_output_widths={}))


@pytest.mark.parametrize("scenario", ["agree", "first_stage_only"])
def test_records_the_agreed_widths(pool: FakeWorkerPool, scenario: str) -> None:
    config = producer_config()
    record_producer_widths(config, pool.rpc(scenario))
    assert config.ec_transfer_config.mm_encoder_output_widths == WIDE


def test_disagreement_names_each_worker_and_records_nothing(pool: FakeWorkerPool) -> None:
    config = producer_config()
    with pytest.raises(WidthDisagreementError) as raised:
        record_producer_widths(config, pool.rpc("disagree"))
    assert f"rank 0: {WIDE}; rank 1: {NARROW}" in str(raised.value)
    assert config.ec_transfer_config.mm_encoder_output_widths == {}


def test_no_worker_with_an_encoder_is_an_error(pool: FakeWorkerPool) -> None:
    with pytest.raises(NoEncoderError, match="could not measure"):
        record_producer_widths(producer_config(), pool.rpc("no_encoder"))


def test_a_worker_without_a_model_attribute_is_named_by_type(pool: FakeWorkerPool) -> None:
    with pytest.raises(EcwidthError, match="SimpleNamespace has no 'model' attribute"):
        record_producer_widths(producer_config(), pool.rpc("not_a_worker"))


@pytest.mark.parametrize(
    "config",
    [SimpleNamespace(), SimpleNamespace(ec_transfer_config=None), producer_config(is_producer=False)],
    ids=["no-attribute", "no-ec-config", "consumer"],
)
def test_only_a_producer_measures(config: SimpleNamespace) -> None:
    def collective_rpc(fn: Callable[[Any], Any]) -> list[Any]:
        raise AssertionError("collective_rpc must not be called when the instance is not an EC producer")

    before = vars(config.ec_transfer_config).copy() if getattr(config, "ec_transfer_config", None) else None
    record_producer_widths(config, collective_rpc)
    after = vars(config.ec_transfer_config) if getattr(config, "ec_transfer_config", None) else None
    assert after == before


def test_measure_on_worker_reports_nothing_for_a_worker_without_encoder() -> None:
    assert measure_on_worker(SimpleNamespace(model=None), options=RuntimeOptions(), release=DEFAULT) == {}


def test_the_engines_pruning_setting_is_measured_with(pool: FakeWorkerPool) -> None:
    config = producer_config()
    config.model_config = SimpleNamespace(multimodal_config=SimpleNamespace(video_pruning_rate=0.5))
    record_producer_widths(config, pool.rpc("agree"))
    vision = tiny_qwen3_vl(levels=2)["vision_config"]
    channels = 5  # vLLM 0.32 qwen3_vl.py: 4 mrope positions and a flag channel, with pruning on
    expected = vision["out_hidden_size"] * (1 + len(vision["deepstack_visual_indexes"])) + channels
    assert config.ec_transfer_config.mm_encoder_output_widths == {"image": expected, "video": expected}
