"""Run one function over many items in forked worker processes, each result as soon as it ends.

A survey's models are independent, and on a CPU each one's build and encode
is Python on one core, so N cores measure N models at once. The workers are
forked: they start with what the parent already imported and read (torch,
transformers, the resolved configs), nothing pickled. Items are handed out one
at a time, so a slow model holds up one worker only. A worker that dies (a
crash, the kernel's OOM killer) loses the item it was on, which comes back as
``WorkerDied``, never dropped; the others go on. An interrupt or error in the
parent ends every worker before it propagates.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from ecwidth.errors import EcwidthError

Item = TypeVar("Item")


class WorkerDied(EcwidthError):
    """The worker process running an item ended before it returned (a crash, or killed)."""


def usable_cores() -> int:
    """The cores this process may run on (its affinity, as a container or ``taskset`` sets it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _serve(function: Callable[[Any], Any], connection: Connection) -> None:
    """A worker's loop: run ``function`` on each item received, send back ``(value, error)``, stop at ``None``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # an interrupt is the parent's to handle: it ends the workers
    while (item := _next(connection)) is not None:
        try:
            outcome = (function(item), None)
        except Exception as error:  # returned, to be raised where the item was asked for
            outcome = (None, error)
        try:
            connection.send(outcome)
        except OSError:  # the parent has gone: nobody is left to answer
            return
        except Exception as error:  # the value or the error does not pickle: say what it was
            connection.send((None, RuntimeError(f"the worker's result could not be sent back: {error!r}")))


def _next(connection: Connection) -> Any:
    """The next item from the parent; ``None`` once it says stop, or has gone."""
    try:
        return connection.recv()
    except EOFError:
        return None


@contextmanager
def fork_map(
    function: Callable[[Item], Any], items: Sequence[Item], jobs: int
) -> Iterator[Iterator[tuple[Item, Any, Exception | None]]]:
    """Fork ``jobs`` workers for the block, which gets ``(item, function(item), None)`` for each item in the
    order they end; ``(item, None, error)`` where ``function`` raised ``error``, or its worker died
    (``WorkerDied``). Every worker is ended when the block ends, however it ends.

    The workers are forked on entering the block, before the caller starts any
    thread of its own (a progress bar's). ``function`` need not pickle (the
    workers are forked with it); its values and errors must.
    """
    context = multiprocessing.get_context("fork")
    pending = list(reversed(items))
    workers: dict[Connection, tuple[multiprocessing.Process, list[Item]]] = {}
    try:
        for _ in range(max(1, min(jobs, len(items)))):
            _start(context, function, workers, pending)
        yield _outcomes(context, function, workers, pending)
    finally:
        _end(workers)


def _outcomes(context: Any, function: Callable[[Any], Any], workers: dict, pending: list[Any]) -> Iterator[tuple]:
    """``fork_map``'s outcomes as the workers send them, handing each worker its next item."""
    while busy := [connection for connection, (_, running) in workers.items() if running]:
        for connection in wait(busy):
            process, running = workers[connection]
            try:
                value, error = connection.recv()
            except EOFError:
                process.join()
                del workers[connection]
                yield (
                    running.pop(),
                    None,
                    WorkerDied(
                        f"the worker process measuring it ended ({_how_it_ended(process.exitcode)}) before it "
                        "returned; run it alone (jobs=1, --jobs 1) to see its own error"
                    ),
                )
                if pending:  # the others still run: a new worker takes this one's place
                    _start(context, function, workers, pending)
                continue
            yield running.pop(), value, error
            _hand_out(connection, running, pending)


def _start(context: Any, function: Callable[[Any], Any], workers: dict, pending: list[Any]) -> None:
    """Fork one more worker into ``workers`` and give it the next pending item."""
    ours, theirs = context.Pipe()
    process = context.Process(target=_serve, args=(function, theirs), daemon=True)
    process.start()
    theirs.close()  # the worker's end lives in the worker alone, so its death reads as EOF here
    workers[ours] = (process, [])
    _hand_out(ours, workers[ours][1], pending)


def _hand_out(connection: Connection, running: list[Item], pending: list[Item]) -> None:
    """Give the worker on ``connection`` the next item, or tell it to stop."""
    if pending:
        running.append(pending.pop())
        connection.send(running[-1])
    else:
        connection.send(None)


def _how_it_ended(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        return f"killed by {signal.Signals(-exitcode).name}"
    return f"exit status {exitcode}"


def _end(workers: dict[Connection, tuple[multiprocessing.Process, list[Any]]]) -> None:
    """End the workers still on an item (the parent is leaving early), tell the idle ones to stop, reap them all."""
    for connection, (process, running) in workers.items():
        if running and process.is_alive():
            process.terminate()
        else:
            try:
                connection.send(None)
            except OSError:  # it has stopped already
                pass
        connection.close()
    for process, _ in workers.values():
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join()
