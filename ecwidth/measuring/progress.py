"""Progress shown the way its reader sees it: a bar on a terminal, one line per step anywhere else.

A bar redraws itself many times a second. A terminal absorbs the frames; a
notebook, a CI log or a redirected stderr stores every one (42 outputs in one
papermill cell), so there one short line per finished step says the same.
Both go to stderr, never to the data on stdout, and ``TQDM_DISABLE`` (tqdm's
own switch) turns both off.
"""

from __future__ import annotations

import os
import sys
from types import TracebackType
from typing import TextIO

from tqdm import tqdm


def progress_wanted(requested: bool = True) -> bool:
    """``requested``, unless ``TQDM_DISABLE`` is set to anything but "", "0" or "false"."""
    return requested and os.environ.get("TQDM_DISABLE", "").strip().lower() in ("", "0", "false")


class Steps:
    """Progress over ``total`` named steps: ``with Steps(n, "ecwidth survey") as steps: steps.done(name, note)``.

    On a terminal a tqdm bar names the step last done; elsewhere each
    ``done`` prints ``"<desc> [i/total] <name>: <note>"``. Nothing at all when
    ``enabled`` is off or ``TQDM_DISABLE`` is set.
    """

    def __init__(self, total: int, desc: str, *, unit: str = "model", enabled: bool = True,
                 stream: TextIO | None = None) -> None:  # fmt: skip
        self.total, self.desc, self.count = total, desc, 0
        self.stream = stream or sys.stderr
        self.enabled = progress_wanted(enabled)
        on_terminal = self.enabled and self.stream.isatty()
        self.bar = tqdm(total=total, desc=desc, unit=unit, file=self.stream) if on_terminal else None

    def done(self, name: str, note: str) -> None:
        """One step finished: ``note`` says how (``"1.4 s"``, ``"failed: ..."``)."""
        self.count += 1
        if self.bar is not None:
            self.bar.set_postfix_str(name, refresh=False)
            self.bar.update(1)
        elif self.enabled:
            self.stream.write(f"{self.desc} [{self.count}/{self.total}] {name}: {note}\n")  # one write: one output
            self.stream.flush()

    def __enter__(self) -> Steps:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        if self.bar is not None:
            self.bar.close()
