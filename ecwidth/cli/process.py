"""How an ``ecwidth`` process ends: one error line and status 2 for bad input, the shell's status for a signal.

A command is work between reading its arguments and flushing its output;
what surrounds it is the same for every subcommand and belongs to the
process, not to any command: a stdout closed before the start or by the
reader going away (``| head``), Ctrl-C, SIGTERM and SIGHUP, a file
interrupted while written, and ecwidth's errors turned into one line.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable

from ecwidth.errors import one_line
from ecwidth.measuring.deadline import Terminated, ending_signals_raise
from ecwidth.records.atomic import WriteInterrupted


def run_guarded(command: Callable[[], int]) -> int:
    """Run ``command`` (read the arguments, do the work, print) and return the process's exit status.

    Ctrl-C, SIGTERM and SIGHUP end the command the same way: every ``finally`` runs (forked workers are
    ended, a half-written file is removed, earlier outputs stay), then one line says why, with the shell's
    status for it: 130, 143 or 129. A ``ValueError`` (every ``EcwidthError`` is one) or ``OSError`` is an
    ``ecwidth: error:`` line and status 2, never a traceback.
    """
    if sys.stdout is None:  # started with stdout closed (`>&-`)
        _stdout_to_a_gone_reader()
    with ending_signals_raise():
        return _guarded(command)


def _guarded(command: Callable[[], int]) -> int:
    """``run_guarded`` with SIGTERM and SIGHUP raised as ``Terminated``."""
    try:
        status = command()
        sys.stdout.flush()  # a closed pipe shows here, inside the handlers, not at interpreter exit
        return status
    except BrokenPipeError:
        return _stdout_closed()
    except Terminated as error:  # SIGTERM, SIGHUP: before KeyboardInterrupt, which it is
        print(f"ecwidth: {error}", file=sys.stderr)
        return error.status
    except WriteInterrupted:  # SIGTERM while a file was written: the old file stands
        print(f"ecwidth: {Terminated(signal.SIGTERM)}", file=sys.stderr)
        return Terminated(signal.SIGTERM).status
    except KeyboardInterrupt:
        print("ecwidth: interrupted", file=sys.stderr)
        return 130
    except (ValueError, OSError) as error:  # EcwidthError is a ValueError
        print(f"ecwidth: error: {one_line(error)}", file=sys.stderr)
        return 2


def _stdout_to_a_gone_reader() -> None:
    """Give a closed stdout a pipe nobody reads, so that writing to it ends as under ``| head``, with 141.

    Without it Python sets ``sys.stdout`` to ``None`` and the first write is an ``AttributeError``.
    """
    read, write = os.pipe()  # one of them may take the free fd 1
    os.dup2(write, 1)
    for fd in {read, write} - {1}:
        os.close(fd)
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - the interpreter's stdout, kept for the process


def _stdout_closed() -> int:
    """The reader went away (``| head``): stop quietly, as every subcommand does, with the shell's status for SIGPIPE."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush has nowhere to fail
    return 141
