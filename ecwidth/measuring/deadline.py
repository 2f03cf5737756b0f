"""Bound a stage of work in time, so that nothing ecwidth runs hangs past its timeout.

An absurd config (thousands of layers, a huge item) must end with an error
that names the model and the stage, not run for hours inside CI or a
serving startup script. The deadline is a ``SIGALRM`` timer: it interrupts
Python code between operations, which is where a tower spends its time
(layer by layer); one enormous operation ends when it returns. Off the main
thread, where signals cannot be handled, the block runs unbounded.
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
        ValueError: Not a finite number between ``MIN_TIMEOUT_S`` and ``MAX_TIMEOUT_S``.
    """
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds):
        raise ValueError(f"timeout must be a finite number of seconds, got {seconds!r}")
    if not MIN_TIMEOUT_S <= seconds <= MAX_TIMEOUT_S:
        raise ValueError(
            f"timeout must be between {MIN_TIMEOUT_S:g} s and {MAX_TIMEOUT_S:g} s (a week), got {seconds:g}"
        )
    return float(seconds)


class Stages:
    """The stage a bounded block is in, so that an expiry names it."""

    def __init__(self, first: str) -> None:
        self.current = first


@contextmanager
def deadline(seconds: float | None, subject: str, first_stage: str) -> Iterator[Stages]:
    """Raise ``DeadlineExceeded`` naming ``subject`` and the current stage if the block outlives ``seconds``.

    The block sets ``stages.current`` as it moves on; ``None`` seconds: no bound.

    Raises:
        DeadlineExceeded: The block ran out of time.
    """
    stages = Stages(first_stage)
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield stages
        return

    def expire(signum: int, frame: object) -> None:
        raise DeadlineExceeded(
            f"{subject}: {stages.current} ran past the {seconds:g} s timeout; stopped. "
            "Raise --timeout (timeout=) if that much time is expected"
        )

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield stages
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
