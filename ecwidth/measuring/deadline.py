"""Bound a stage of work in time, so that nothing ecwidth runs hangs past its timeout.

An absurd config (thousands of layers, a huge item) must end with an error
that names the model and the stage, not run for hours inside CI or a
serving startup script. The deadline is a ``SIGALRM`` timer: it interrupts
Python code between operations, which is where a tower spends its time
(layer by layer); one enormous operation ends when it returns. Off the main
thread, where signals cannot be handled, the block runs unbounded.

Being told to stop is the other bound: SIGTERM and SIGHUP are raised as
``Terminated`` (``ending_signals_raise``), as Ctrl-C is raised as
``KeyboardInterrupt``, so that the same cleanup runs for all three.
"""

from __future__ import annotations

import math
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ecwidth.errors import EcwidthError

#: The longest timeout ecwidth takes: a week. Anything longer is a typo for "no timeout".
MAX_TIMEOUT_S = 7 * 24 * 3600.0
#: The shortest: below this no model builds, and a distributed rendezvous cannot form.
MIN_TIMEOUT_S = 1.0


class DeadlineExceeded(EcwidthError):
    """A stage of work ran past its timeout."""


def check_timeout(seconds: object) -> float:
    """``seconds`` as a float, if it is a sane timeout.

    Raises:
        EcwidthError: (a ``ValueError``) Not a finite number between ``MIN_TIMEOUT_S`` and ``MAX_TIMEOUT_S``.
    """
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, (int, float))
        or (isinstance(seconds, float) and not math.isfinite(seconds))
    ):
        raise EcwidthError(f"timeout must be a finite number of seconds, got {_shown(seconds)}")
    if not MIN_TIMEOUT_S <= seconds <= MAX_TIMEOUT_S:  # compared as given: a 400-digit int never becomes a float
        raise EcwidthError(
            f"timeout must be between {MIN_TIMEOUT_S:g} s and {MAX_TIMEOUT_S:g} s (a week), got {_shown(seconds)}"
        )
    return float(seconds)


def _shown(value: object) -> str:
    """A value for a one-line message: ``3.5``, ``-2``, or a long one (a 400-digit integer) shortened."""
    text = f"{value:g}" if isinstance(value, float) else repr(value)
    return text if len(text) <= 40 else f"{text[:12]}... ({len(text)} characters)"


class Stages:
    """The subject and stage a bounded block is in, so that an expiry names them."""

    def __init__(self, subject: str, first: str) -> None:
        self.subject = subject
        self.current = first


@contextmanager
def deadline(seconds: float | None, subject: str, first_stage: str) -> Iterator[Stages]:
    """Raise ``DeadlineExceeded`` naming ``subject`` and the current stage if the block outlives ``seconds``.

    The block sets ``stages.current`` (and ``stages.subject``, once it knows a better name) as it moves on;
    ``None`` seconds: no bound.

    Raises:
        DeadlineExceeded: The block ran out of time.
    """
    stages = Stages(subject, first_stage)
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield stages
        return

    def expire(signum: int, frame: object) -> None:
        raise DeadlineExceeded(
            f"{stages.subject}: {stages.current} ran past the {seconds:g} s timeout; stopped. "
            "Raise --timeout (timeout=) if that much time is expected"
        )

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield stages
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# -- being told to stop: SIGTERM and SIGHUP ------------------------------------------------

#: The signals that ask a process to end, which ecwidth turns into ``Terminated`` so that its cleanup runs.
ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived: raised, as Ctrl-C raises ``KeyboardInterrupt``, so that every ``finally`` runs
    (forked workers ended, temporary files removed) before the process goes. ``status`` is the shell's for it:
    143 for SIGTERM, 129 for SIGHUP."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(f"stopped by {signal.Signals(signum).name}")

    @property
    def status(self) -> int:
        return 128 + self.signum


@contextmanager
def ending_signals_raise(*, redeliver: bool = False) -> Iterator[None]:
    """For the block, SIGTERM and SIGHUP raise ``Terminated`` in the main thread instead of ending the process
    where it stands.

    Only a signal whose handling is the default is taken: an ignored one (``nohup``'s SIGHUP) stays ignored,
    and a handler someone else set (an enclosing block's, a server's) stays theirs. Once one signal has
    arrived, more of them are ignored until the block ends, so the cleanup the first one started is not cut
    short. With ``redeliver``, a ``Terminated`` leaving the block is sent again as its signal once the default
    handling is back: a process that would have died of it still dies of it, after the cleanup (a notebook
    kernel, a script). Off the main thread the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    taken = [signum for signum in ENDING_SIGNALS if signal.getsignal(signum) is signal.SIG_DFL]
    arrived: list[int] = []

    def stop(signum: int, frame: object) -> None:
        if not arrived:
            arrived.append(signum)
            raise Terminated(signum)

    for signum in taken:
        signal.signal(signum, stop)
    try:
        yield
    except Terminated as error:
        if not (redeliver and error.signum in taken):
            raise
        for signum in taken:
            signal.signal(signum, signal.SIG_DFL)
        taken = []
        signal.raise_signal(error.signum)  # the default: the process ends here, as it would have
        raise
    finally:
        for signum in taken:
            signal.signal(signum, signal.SIG_DFL)
