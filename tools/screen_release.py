"""Screen a new engine release against the family records: a maintainer's tool, not part of the package or CI.

Every family record names the engine source files its shipped width depends on
(``Serving.files``); ``ecwidth/engines/files.json`` holds their sha256 per
known release. Given a new release, this downloads its wheel (``pip download
--no-deps``), hashes the same files, and lists the families whose files changed
or vanished, the architectures added to or removed from the engine's
registry, and the transformers pin its metadata declares. What it lists is
where to read the new code; the facts themselves are then written into the
records by hand.

    python tools/screen_release.py vllm==0.34.0                  # against the newest vLLM ecwidth knows
    python tools/screen_release.py vllm==0.34.0 --against vllm==0.32.0 --wheel path/to/vllm-0.34.0.whl
    python tools/screen_release.py vllm==0.33.0 --record --wheel path/to/vllm-0.33.0.whl   # write its hashes

``--record`` writes the release's hashes of every file the records name into
``files.json``, and the multimodal architectures its wheel registers into
``registered.json`` (run it once a release's records are written): the list
``tests/engines/test_registry.py`` checks every architecture of has an entry.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ecwidth.engines import registry, releases  # noqa: E402 (after the path, so a source checkout runs it)

FILES_JSON = ROOT / "ecwidth" / "engines" / "files.json"
REGISTERED_JSON = ROOT / "ecwidth" / "engines" / "registered.json"
#: The PyPI project of each engine's wheel (vLLM 0.32.0's CPU build is another project: pass --wheel for it).
PROJECTS = {"vllm": "vllm", "sglang": "sglang"}
#: Where each engine lists its architectures: the file, and the names of the dicts whose keys are architectures.
REGISTRIES = {
    "vllm": "vllm/model_executor/models/registry.py",
    "sglang": "sglang/srt/arg_groups/pd_disaggregation_hook.py",
}
#: The names of vLLM's registry dicts whose keys are architectures.
VLLM_TABLES = re.compile(r"_[A-Z_]*_MODELS$")


def parse_release(text: str) -> tuple[str, str]:
    """``"vllm==0.34.0"`` as ``("vllm", "0.34.0")``; the version may be one ecwidth does not know."""
    engine, _, version = text.partition("==")
    if engine not in PROJECTS or not version:
        raise SystemExit(f"name a release as ENGINE==VERSION with ENGINE one of {', '.join(PROJECTS)}, got {text!r}")
    return engine, version


def fetch_wheel(engine: str, version: str, folder: Path) -> Path:
    """Download the release's wheel, without its dependencies, into ``folder``."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--quiet",
            f"{PROJECTS[engine]}=={version}",
            "-d",
            folder,
        ],
        check=True,
    )
    return next(folder.glob("*.whl"))


def files_by_family(key: str) -> dict[str, list[str]]:
    """``{engine file: [model types whose registry entry for release key names it]}``."""
    named: dict[str, list[str]] = {}
    for entry in registry.entries(releases.release(key)).values():
        for path in entry.files:
            named.setdefault(path, []).extend(t for t in entry.model_types if t not in named.get(path, ()))
    return named


def hashes(wheel: zipfile.ZipFile, paths: list[str]) -> dict[str, str | None]:
    """sha256 of each path in the wheel; ``None`` for a path the wheel lacks."""
    present = set(wheel.namelist())
    return {path: hashlib.sha256(wheel.read(path)).hexdigest() if path in present else None for path in paths}


def architectures(engine: str, wheel: zipfile.ZipFile) -> set[str]:
    """The architectures the release registers (vLLM: every ``_*_MODELS`` dict; SGLang: the encoder whitelist)."""
    if engine == "vllm":
        return {arch for table in vllm_registry(wheel).values() for arch in table}
    tree = ast.parse(wheel.read(REGISTRIES[engine]))
    pattern = re.compile(r"[A-Z][A-Za-z0-9_]*For(ConditionalGeneration|CausalLM)")
    return {
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and pattern.fullmatch(n.value)
    }


def vllm_registry(wheel: zipfile.ZipFile) -> dict[str, dict[str, tuple[str, str]]]:
    """``{dict name: {architecture: (module, class)}}`` for every ``_*_MODELS`` dict of vLLM's registry.py."""
    tables: dict[str, dict[str, tuple[str, str]]] = {}
    for node in ast.parse(wheel.read(REGISTRIES["vllm"])).body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        for target in targets:
            if isinstance(target, ast.Name) and VLLM_TABLES.match(target.id) and isinstance(node.value, ast.Dict):
                tables[target.id] = {
                    k.value: tuple(ast.literal_eval(v)) if isinstance(v, ast.Tuple) else ("", "")
                    for k, v in zip(node.value.keys, node.value.values)
                    if isinstance(k, ast.Constant)
                }
    return tables


def multimodal_architectures(engine: str, wheel: zipfile.ZipFile) -> set[str]:
    """The architectures the release serves with multimodal input: for vLLM every ``_MULTIMODAL_MODELS`` key, the
    ``_TEXT_GENERATION_MODELS`` keys whose class is ``SupportsMultiModal``, and the Transformers-backend keys
    that name its multimodal class; for SGLang its encoder-disaggregation whitelist."""
    if engine != "vllm":
        return architectures(engine, wheel)
    tables = vllm_registry(wheel)
    bases = class_bases(wheel)

    def multimodal(name: str, seen: frozenset[str] = frozenset()) -> bool:
        return name not in seen and any(
            b == "SupportsMultiModal" or multimodal(b, seen | {name}) for b in bases.get(name, ())
        )

    found = set(tables.get("_MULTIMODAL_MODELS", {}))
    found |= {a for a, (_, cls) in tables.get("_TEXT_GENERATION_MODELS", {}).items() if multimodal(cls)}
    found |= {a for a, (_, cls) in tables.get("_TRANSFORMERS_SUPPORTED_MODELS", {}).items() if "MultiModal" in cls}
    return found


def class_bases(wheel: zipfile.ZipFile) -> dict[str, list[str]]:
    """``{class name: [base names]}`` over every model file of a vLLM wheel (names only: enough to follow a chain)."""
    found: dict[str, list[str]] = {}
    for name in wheel.namelist():
        if name.endswith(".py") and name.startswith(("vllm/model_executor/models/", "vllm/models/")):
            for node in ast.walk(ast.parse(wheel.read(name))):
                if isinstance(node, ast.ClassDef):
                    found.setdefault(node.name, []).extend(
                        ast.unparse(b).split(".")[-1].split("[")[0] for b in node.bases
                    )
    return found


def transformers_pin(wheel: zipfile.ZipFile) -> str:
    """The transformers requirement of the wheel's METADATA."""
    metadata = next(name for name in wheel.namelist() if name.endswith(".dist-info/METADATA"))
    for line in wheel.read(metadata).decode().splitlines():
        if line.startswith("Requires-Dist: transformers"):
            return line.removeprefix("Requires-Dist: transformers").split(";")[0].strip()
    return "(none declared)"


def open_wheel(engine: str, version: str, given: str | None, folder: Path) -> zipfile.ZipFile:
    return zipfile.ZipFile(given if given else fetch_wheel(engine, version, folder))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("release", help="ENGINE==VERSION, e.g. vllm==0.34.0")
    parser.add_argument("--against", help="a known release to compare with (default: the newest of that engine)")
    parser.add_argument("--wheel", help="the new release's wheel, instead of downloading it")
    parser.add_argument("--against-wheel", help="the known release's wheel, for the registry comparison")
    parser.add_argument("--record", action="store_true", help="write the release's hashes into files.json")
    args = parser.parse_args(argv)
    engine, version = parse_release(args.release)
    known = json.loads(FILES_JSON.read_text()) if FILES_JSON.exists() else {}
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "new").mkdir()
        (Path(scratch) / "old").mkdir()
        wheel = open_wheel(engine, version, args.wheel, Path(scratch) / "new")
        if args.record:
            key = releases.release(args.release).key  # only a release the records know
            known[key] = {p: h for p, h in sorted(hashes(wheel, sorted(files_by_family(key))).items())}
            missing = [p for p, h in known[key].items() if h is None]
            if missing:
                raise SystemExit(f"{key}'s records name files its wheel lacks: {', '.join(missing)}")
            FILES_JSON.write_text(json.dumps(known, indent=1, sort_keys=True) + "\n")
            print(f"recorded {len(known[key])} file hashes for {key} in {FILES_JSON.relative_to(ROOT)}")
            registered = json.loads(REGISTERED_JSON.read_text()) if REGISTERED_JSON.exists() else {}
            registered[key] = sorted(multimodal_architectures(engine, wheel))
            REGISTERED_JSON.write_text(json.dumps(registered, indent=1, sort_keys=True) + "\n")
            print(f"recorded {len(registered[key])} multimodal architectures for {key} in "
                  f"{REGISTERED_JSON.relative_to(ROOT)}")  # fmt: skip
            return 0
        against = releases.release(args.against or engine)
        named = files_by_family(against.key)
        before = known.get(against.key, {})
        after = hashes(wheel, sorted(named))
        print(f"{engine}=={version} against {against.key}: {len(named)} engine files named by the family records")
        print(f"transformers pin: {transformers_pin(wheel)} (was {against.transformers})")
        changed = {p: t for p, t in named.items() if after[p] != before.get(p)}
        print(f"\nfiles changed or gone: {len(changed)}")
        for path, model_types in sorted(changed.items()):
            state = "gone" if after[path] is None else "changed"
            print(f"  {state:<8} {path}: {', '.join(sorted(model_types))}")
        families = sorted({t for types in changed.values() for t in types})
        print(f"\nmodel types to re-read: {len(families)}" + (f": {', '.join(families)}" if families else ""))
        old_wheel = open_wheel(engine, against.version, args.against_wheel, Path(scratch) / "old")
        old, new = architectures(engine, old_wheel), architectures(engine, wheel)
        print(f"\narchitectures added: {len(new - old)}" + "".join(f"\n  + {a}" for a in sorted(new - old)))
        print(f"architectures removed: {len(old - new)}" + "".join(f"\n  - {a}" for a in sorted(old - new)))
        served = multimodal_architectures(engine, wheel)
        entries = registry.entries(against)
        unanswered = sorted(served - set(entries))
        print(f"\nmultimodal architectures the release registers: {len(served)}; without an entry in "
              f"{against.file}: {len(unanswered)}" + "".join(f"\n  ? {a}" for a in unanswered))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
