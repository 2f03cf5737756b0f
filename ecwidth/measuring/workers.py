"""Run one function over many items in forked worker processes, each result as soon as it ends.

A survey's models are independent, and on a CPU each one's build and encode
is Python on one core, so N cores measure N models at once. The workers are
forked: they start with what the parent already imported (torch,
transformers), nothing pickled. Items are handed out one
at a time, so a slow model holds up one worker only. A worker that dies (a
crash, the kernel's OOM killer) loses the item it was on, which comes back as
``WorkerDied``, never dropped; the others go on. An interrupt, SIGTERM,
SIGHUP or error in the parent ends every worker before it propagates, and a
worker whose parent is gone (even killed with SIGKILL) is ended by the kernel,
so none is left holding the parent's stdout and stderr.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from ecwidth.errors import EcwidthError
from ecwidth.measuring.deadline import ENDING_SIGNALS, ending_signals_raise

Item = TypeVar("Item")


class WorkerDied(EcwidthError):
    """The worker process running an item ended before it returned (a crash, or killed)."""


def usable_cores() -> int:
    """The cores this process may run on (its affinity, as a container or ``taskset`` sets it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


#: ``prctl`` option: the signal the kernel sends this process when its parent ends.
_PR_SET_PDEATHSIG = 1


def _end_with_parent(parent: int) -> None:
    """Have the kernel SIGKILL this process when its parent ends, however it ends (Linux; elsewhere a no-op)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux
        return
    if os.getppid() != parent:  # the parent ended before the request was made
        os._exit(1)


def _serve(function: Callable[[Any], Any], connection: Connection, parent: int) -> None:
    """A worker's loop: run ``function`` on each item received, send back ``(value, error)``, stop at ``None``."""
    _end_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # an interrupt is the parent's to handle: it ends the workers
    for signum in ENDING_SIGNALS:  # the parent's handlers raise; here the default ends the worker at once
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, ENDING_SIGNALS)  # held back by ``_start`` across the fork
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
    (``WorkerDied``). Every worker is ended when the block ends, however it ends: SIGTERM and SIGHUP during
    the block end the workers first, then act as they would have (``ending_signals_raise``), and a worker
    outlives no parent.

    The workers are forked on entering the block, before the caller starts any
    thread of its own (a progress bar's). ``function`` need not pickle (the
    workers are forked with it); its values and errors must.
    """
    context = multiprocessing.get_context("fork")
    pending = list(reversed(items))
    workers: dict[Connection, tuple[multiprocessing.Process, list[Item]]] = {}
    with ending_signals_raise(redeliver=True):
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
    process = context.Process(target=_serve, args=(function, theirs, os.getpid()), daemon=True)
    # Held back across the fork: the worker takes them only once its own handling is set (``_serve``),
    # so a signal in between ends it, never raises the parent's ``Terminated`` inside it.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, ENDING_SIGNALS)
    try:
        process.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
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
