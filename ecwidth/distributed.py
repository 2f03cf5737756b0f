"""``python -m ecwidth.distributed``: measure across a torchrun job's ranks (``ecwidth.cli.distributed``).

The ending signals are taken before torch is imported, so that every thread it starts leaves them to
``ecwidth.cli.rank_signals``.
"""

if __name__ == "__main__":
    from ecwidth.cli.rank_signals import hold_ending_signals

    rank_signals = hold_ending_signals("ecwidth.distributed")
    from ecwidth.cli.distributed import main

    raise SystemExit(main(rank_signals=rank_signals))
