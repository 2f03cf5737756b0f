"""``python -m ecwidth.distributed``: measure across a torchrun job's ranks (``ecwidth.cli.distributed``)."""

from ecwidth.cli.distributed import main

if __name__ == "__main__":
    raise SystemExit(main())
