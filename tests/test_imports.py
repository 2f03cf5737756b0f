"""``import ecwidth``, the table commands and the producer hook load neither torch nor transformers (nor pandas).

A producer looks a width up at startup, and a script runs ``ecwidth lookup`` in
a loop: neither should pay seconds of imports for a JSON read. And the record
side is ecwidth's base install, beside an engine whose own transformers pin
(or none) is all there is. Each case runs
in a fresh interpreter under ``-X importtime``, which lists every module the
process imported.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TABLE = str(ROOT / "tables" / "encoder_widths.json")
HEAVY = ("torch", "transformers", "pandas")
#: The producer hook as an engine calls it: a later pipeline stage (no model) and a worker's report.
PRODUCER_HOOK = """
import types, ecwidth
config = types.SimpleNamespace(ec_transfer_config=types.SimpleNamespace(is_ec_producer=True))
ecwidth.record_producer_widths(config, lambda fn: [fn(types.SimpleNamespace(model=None)), {"image": 16384}])
print(config.ec_transfer_config.mm_encoder_output_widths)
"""


def imported_modules(*args: str) -> tuple[set[str], str]:
    """Every module a fresh ``python -X importtime ARGS`` imported, and its stdout."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", *args],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    modules = {
        line.rsplit("|", 1)[1].strip()
        for line in result.stderr.splitlines()
        if line.startswith("import time:") and line.count("|") == 2
    }
    assert "ecwidth" in modules  # the listing was read
    return modules, result.stdout


@pytest.mark.parametrize(
    ("args", "stdout"),
    [
        (["-c", "import ecwidth"], ""),
        (["-m", "ecwidth", "lookup", TABLE, "qwen3-vl-8b-instruct", "image"], "16384\n"),
        (
            ["-m", "ecwidth", "export", TABLE, "--model", "qwen3-vl-8b-instruct", "--format", "producer-json"],
            '"mm_encoder_output_widths"',
        ),  # fmt: skip
        (["-m", "ecwidth", "export", TABLE, "--format", "md"], "| qwen3-vl-8b-instruct | image |"),
        (["-m", "ecwidth", "models"], "qwen3_vl"),
        (["-m", "ecwidth", "models", "--json"], '"model_type": "qwen3_vl"'),
        (["-m", "ecwidth", "engines", "--json"], '"key": "sglang==0.5.23"'),
        (["-c", PRODUCER_HOOK], "{'image': 16384}"),
    ],
    ids=["import", "lookup", "export-producer-json", "export-md", "models", "models-json", "engines", "producer"],
)
def test_table_path_imports_no_torch_transformers_or_pandas(args, stdout):
    modules, out = imported_modules(*args)
    assert stdout in out
    heavy = sorted(m for m in modules if m.split(".")[0] in HEAVY)
    assert not heavy, f"{' '.join(args[-4:])} imported {heavy[:5]}"


def test_names_that_need_torch_resolve_on_first_use():
    import ecwidth.measuring.survey  # noqa: F401  binds nothing over ecwidth.measure, the function
    from ecwidth.measuring.measure import measure

    assert ecwidth.measure is measure and callable(ecwidth.measure)
    assert ecwidth.predict_widths.__module__ == "ecwidth.measuring.predict"
    assert {"measure", "measure_widths", "MeasureResult", "record_producer_widths"} <= set(dir(ecwidth))
    assert set(ecwidth.__all__) <= set(dir(ecwidth))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        ecwidth.nope  # noqa: B018
