"""``python -m ecwidth``: the ``ecwidth`` command."""

from ecwidth.cli import run

raise SystemExit(run())
