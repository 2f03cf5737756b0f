"""``python -m ecwidth``: the ``ecwidth`` command."""

from ecwidth.cli.commands import run

raise SystemExit(run())
