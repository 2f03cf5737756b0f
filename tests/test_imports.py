"""``import ecwidth``, the table commands, ``engines --architectures`` and the producer hook load neither torch
nor transformers (nor pandas).

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
        (["-m", "ecwidth", "engines", "--architectures", "--json"], '"architecture": "InternVLChatModel"'),
        (["-c", PRODUCER_HOOK], "{'image': 16384}"),
    ],
    ids=[
        "import",
        "lookup",
        "export-producer-json",
        "export-md",
        "models",
        "models-json",
        "engines",
        "architectures",
        "producer",
    ],  # fmt: skip
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


def _import_graph() -> dict[str, set[str]]:
    """``{module: the ecwidth modules it imports at module level}`` (``TYPE_CHECKING`` blocks left out), from the code."""
    import ast

    modules = {}
    for path in (ROOT / "ecwidth").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path

    def module_of(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for statement in ast.parse(path.read_text()).body:
            if isinstance(statement, ast.If) and "TYPE_CHECKING" in ast.unparse(statement.test):
                continue
            for node in ast.walk(statement) if isinstance(statement, ast.Import | ast.ImportFrom | ast.If) else ():
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ecwidth"):
                    targets = [
                        module_of(f"{node.module}.{alias.name}") or module_of(node.module) for alias in node.names
                    ]
                elif isinstance(node, ast.Import):
                    targets = [module_of(alias.name) for alias in node.names if alias.name.startswith("ecwidth")]
                else:
                    continue
                graph[name] |= {target for target in targets if target and target != name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of ``graph`` as a path, or ``[]``."""
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> list[str]:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt] if nxt in path else [node, nxt]
            if not state.get(nxt) and (found := visit(nxt, [*path, nxt])):
                return found
        state[node] = 2
        return []

    return next((found for node in sorted(graph) if not state.get(node) and (found := visit(node, [node]))), [])


def test_no_module_imports_itself_through_others_and_the_tiers_import_one_way():
    """Each top-level folder of ecwidth is one tier (reading, families, measuring, records, serving, cli, study,
    engines): no import cycle between modules, nor between tiers."""
    graph = _import_graph()
    assert not _cycle(graph), " -> ".join(_cycle(graph))
    tiers: dict[str, set[str]] = {}
    for module, imported in graph.items():
        tier = module.split(".")[1] if module.count(".") else module
        tiers.setdefault(tier, set()).update(
            t.split(".")[1] for t in imported if t.count(".") and t.split(".")[1] != tier
        )
    tiers = {tier: {t for t in imported if t in tiers} for tier, imported in tiers.items()}
    assert not _cycle(tiers), " -> ".join(_cycle(tiers))
