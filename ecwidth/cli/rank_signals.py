"""SIGTERM and SIGHUP on a torchrun rank: every rank ends promptly with the shell's status and one line.

A scheduler stops a job by signalling its processes. A rank spends its waits
inside torch.distributed's C++ calls (the rendezvous, a barrier), where a
Python signal handler does not run until the call returns, minutes later. So
``hold_ending_signals`` blocks the signals in this thread before torch starts
any other, which inherit the mask, and one thread takes them
(``sigwaitinfo``). A rank signalled from outside says so in one line and
ends at once with 143 (SIGTERM) or 129 (SIGHUP), after an output being
renamed into place is done (``writing``); where torch is loaded it first
notes the signal in torchrun's store (``MASTER_ADDR``/``MASTER_PORT``, the
agent's). The others end silently: those torchrun's agent then stops (with
SIGTERM: 143), and those that see the first vanish from a collective, with
the noted signal's status (``stopped_by``). The store is reached only once
the main thread has imported torch (``torch_loaded``): importing it from a
second thread during the first's import breaks that import.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from datetime import timedelta
from typing import Any

from ecwidth.measuring.deadline import ENDING_SIGNALS, Terminated

#: Seconds a rank tries to reach torchrun's store before it ends on its own signal alone.
_STORE_TIMEOUT_S = 2.0


def _job_store() -> Any:
    """A client of torchrun's store, or ``None`` where this process was not launched by torchrun."""
    import torch.distributed as dist

    try:
        address, port = os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"])
        return dist.TCPStore(address, port, is_master=False, timeout=timedelta(seconds=_STORE_TIMEOUT_S))
    except (KeyError, ValueError, RuntimeError):
        return None


def _stop_key() -> str:
    """The store key of this run's stop (one per torchrun run and restart)."""
    return f"ecwidth/stopped/{os.environ.get('TORCHELASTIC_RUN_ID', '')}/{os.environ.get('TORCHELASTIC_RESTART_COUNT', '0')}"


class RankSignals:
    """The signal-taking thread of one rank, and what it shares with the main thread."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        #: held while an output file is written, so an ending signal waits until it is renamed into place.
        self.writing = threading.Lock()
        #: set by the main thread once it has imported torch: from then on the store may be reached.
        self.torch_loaded = threading.Event()
        self._rank = os.environ.get("RANK", "0")

    def stopped_by(self) -> int | None:
        """The signal a rank of this run was stopped by, where one noted it; ``None`` otherwise."""
        store = _job_store()
        try:
            if store is None or not store.check([_stop_key()]):
                return None
            return int(store.get(_stop_key()).decode().split()[0])
        except (RuntimeError, ValueError):  # the store went with its host
            return None

    def _take(self, taken: list[int]) -> None:
        info = signal.sigwaitinfo(taken)
        with self.writing:
            if info.si_pid != os.getppid():  # not the launcher stopping the rest after one rank ended
                self._note(info.si_signo)
                sys.stderr.write(f"{self.prefix}: {Terminated(info.si_signo)}\n")  # one write: ranks share stderr
                sys.stderr.flush()
            os._exit(128 + info.si_signo)

    def _note(self, signum: int) -> None:
        """Note ``signum`` in torchrun's store for the peers, where the store can be reached now."""
        store = _job_store() if self.torch_loaded.is_set() else None
        try:
            if store is not None:
                store.compare_set(_stop_key(), "", f"{signum} {self._rank}")
        except RuntimeError:  # the store went with its host: the peers are ending too
            pass


def hold_ending_signals(prefix: str) -> RankSignals:
    """Take SIGTERM and SIGHUP in a thread of their own for the rest of the process; call before importing torch.

    Only a signal whose handling is the default is taken: an ignored one (``nohup``'s SIGHUP) stays ignored.
    """
    rank_signals = RankSignals(prefix)
    taken = [signum for signum in ENDING_SIGNALS if signal.getsignal(signum) is signal.SIG_DFL]
    if taken:
        signal.pthread_sigmask(signal.SIG_BLOCK, taken)
        threading.Thread(target=rank_signals._take, args=(taken,), name="ecwidth-signals", daemon=True).start()
    return rank_signals
