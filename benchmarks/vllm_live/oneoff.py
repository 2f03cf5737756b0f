"""One compare.py run with extra config changes, for the one-off rows of benchmarks/RESULTS.md (not kept in compare.py).

    OMP_NUM_THREADS=1 PYTHONPATH=benchmarks/vllm_live/stubs build/vllm_live/venv/bin/python \\
        benchmarks/vllm_live/oneoff.py MODEL_TYPE '{"hidden_size": 128}'

The changes (JSON) are laid over the tiny config after compare.py's own, and ecwidth's prediction is read from the
same changed config vLLM builds, so a change that moves the width (an LM widened past a CPU kernel's limit) moves
both sides. Engine-only families only: their width is predicted, so the changed config needs no model.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare  # noqa: E402


def predicted_on_prepared(model_type: str) -> tuple[str, dict[str, Any]]:
    """``ecwidth predict`` for the config compare.py wrote for vLLM (changes included), not the tiny file."""
    folder, _ = compare.prepared(model_type)
    run = subprocess.run(
        [str(compare.ROOT / ".venv" / "bin" / "ecwidth"), "predict", "--engine", "vllm==0.32.0",
         "--config", str(folder / "config.json"), "--json"],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ""},
    )  # fmt: skip
    return "predicted", json.loads(run.stdout)["predicted"] if run.returncode == 0 else {"error": run.stderr[-400:]}


if __name__ == "__main__":
    model_type, changes = sys.argv[1], json.loads(sys.argv[2])
    compare.LM_ONLY_CHANGES[model_type] = compare._merged(compare.LM_ONLY_CHANGES.get(model_type, {}), changes)
    compare.ecwidth_widths = predicted_on_prepared
    print(json.dumps({"changes": changes, **compare.compare(model_type)}), flush=True)
