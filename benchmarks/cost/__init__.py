"""The cost benchmark behind ``benchmarks/measure_cost.py``, one concern per module.

- ``limits``: the models it measures by default, the targets and their limits, and the check of each;
- ``probes``: what is timed inside this process (predict, build and encode, a whole catalog, the machine);
- ``processes``: what is timed in fresh processes (the import floor, ``ecwidth lookup``, ``ecwidth survey``
  and its split, with ``timed_survey`` as the instrumented command);
- ``report``: the printed report.
"""
