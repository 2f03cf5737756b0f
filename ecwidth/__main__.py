"""``python -m ecwidth``: the ``ecwidth`` command."""

from ecwidth.cli import main

raise SystemExit(main())
