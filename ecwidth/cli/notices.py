"""What a user sees besides the data and the progress: ecwidth's own warnings, once each; not transformers' notes.

transformers logs notes about published configs (rope keys it renames, token
ids outside a vocabulary ecwidth shrank): a user can act on none of them, so
the command line and the notebooks leave them out. ecwidth's own warnings ask
something of the user, so each text is shown once, the moment it arises, as one
``ecwidth: warning:`` line on stderr, without the file and source line (the
runner's checkout) that Python's default display prints.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

ShowWarning = Callable[..., None]


def quiet_transformers() -> None:
    """transformers logs errors only, unless ``TRANSFORMERS_VERBOSITY`` asks for more; also once it is imported."""
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    if "transformers" in sys.modules:  # its logger read the variable at import: tell it again
        from transformers.utils import logging

        logging.set_verbosity(logging.get_log_levels_dict().get(os.environ["TRANSFORMERS_VERBOSITY"], logging.WARNING))


def _ecwidth_warnings_once(others: ShowWarning | None) -> ShowWarning:
    """A ``warnings.showwarning``: an ecwidth warning as one line, each text once; any other to ``others`` (None: dropped)."""
    shown: set[str] = set()

    def show(message: Any, category: type[Warning], *rest: Any, **keywords: Any) -> None:
        if not category.__module__.startswith("ecwidth"):
            if others is not None:
                others(message, category, *rest, **keywords)
            return
        text = str(message)
        if text not in shown:
            shown.add(text)
            sys.stderr.write(f"ecwidth: warning: {text}\n")
            sys.stderr.flush()

    return show


@contextmanager
def warnings_on_stderr() -> Iterator[None]:
    """For one command: ecwidth's warnings shown once each, the moment they arise; every other warning dropped.

    A warning that comes before long work (a profile item on a CPU) is only useful up front.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = _ecwidth_warnings_once(None)
        yield


def show_in_this_session() -> None:
    """For a notebook's kernel, from now on: transformers quiet, ecwidth's warnings one line each, once.

    Other libraries' warnings keep their usual display: a notebook's user may act on them.
    """
    quiet_transformers()
    if getattr(warnings.showwarning, "__module__", None) != __name__:  # a second setup cell keeps one display
        warnings.showwarning = _ecwidth_warnings_once(warnings.showwarning)
