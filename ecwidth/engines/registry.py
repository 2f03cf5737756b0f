"""One registry per engine release, keyed by architecture: ``ecwidth/engines/registries/*.toml``, read as data.

A release's file names the release (engine, version, the transformers pin its
wheel declares) and holds one ``[architectures.<name>]`` table per architecture
it registers or that ecwidth knows it refuses. A later release says only what
moved: ``include`` names the file it extends, its own tables replace whole
entries of that file, and ``removed`` drops architectures it no longer has.
Reading needs nothing beyond the standard library, so ``ecwidth engines`` and
the release screen answer without torch.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ecwidth.engines.facts import Serving
from ecwidth.engines.releases import REGISTRIES, Release

#: The fields an entry may hold; anything else is a typo in the file.
_FIELDS = frozenset(
    {"model_type", "family", "path", "classes", "files", "ships", "why_not", "keys", "options", "unserved",
     "unserved_with", "refuses", "transformers", "only_when_named"}
)  # fmt: skip


def _entry(architecture: str, table: Mapping[str, Any], source: Path) -> Serving:
    unknown = sorted(set(table) - _FIELDS)
    needed = ("model_type", "path") + (("family",) if table.get("path") != "none" else ())
    if unknown or any(name not in table for name in needed):
        raise ValueError(f"{source.name}: [architectures.{architecture}] needs {', '.join(needed)}; "
                         f"unknown fields: {unknown}")  # fmt: skip
    model_types = table["model_type"]
    return Serving(
        table["path"],
        classes=tuple(table.get("classes", [architecture] if table["path"] != "none" else [])),
        files=tuple(table.get("files", ())),
        ships=table.get("ships", ""),
        why_not=table.get("why_not", ""),
        keys=MappingProxyType(dict(table.get("keys", {}))),
        options=frozenset(table.get("options", ())),
        unserved=MappingProxyType(dict(table.get("unserved", {}))),
        unserved_with=MappingProxyType(
            {k: MappingProxyType(dict(v)) for k, v in table.get("unserved_with", {}).items()}
        ),
        refuses=MappingProxyType(dict(table.get("refuses", {}))),
        transformers=table.get("transformers", ""),
        architecture=architecture,
        model_types=(model_types,) if isinstance(model_types, str) else tuple(model_types),
        family=table.get("family", ""),
        only_when_named=table.get("only_when_named", False),
    )


def _read(path: Path) -> dict[str, Serving]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    entries = _read(path.parent / data["include"]) if "include" in data else {}
    for architecture in data.get("removed", ()):
        entries.pop(architecture)
    for architecture, table in data.get("architectures", {}).items():
        entries[architecture] = _entry(architecture, table, path)
    return dict(sorted(entries.items()))


@cache
def entries(release: Release) -> Mapping[str, Serving]:
    """``{architecture: entry}`` for ``release``, its ``include`` chain resolved, sorted by architecture."""
    return MappingProxyType(_read(REGISTRIES / release.file))


def for_model_type(release: Release, model_type: str, architecture: str | None = None) -> Serving | None:
    """The entry ``release`` answers a ``model_type`` config with: the one its ``architecture`` names where
    that entry is for the type (the way the engine picks), else the first by architecture that is not
    ``only_when_named``; None where the release has none."""
    named = entries(release).get(architecture or "")
    if named is not None and model_type in named.model_types:
        return named
    candidates = (e for e in entries(release).values() if model_type in e.model_types and not e.only_when_named)
    return next(candidates, None)


def for_architecture(architecture: str) -> Serving | None:
    """The newest entry any release holds for ``architecture``: how a config whose model type no family
    registers is matched to its family (vLLM picks the class by ``architectures``)."""
    from ecwidth.engines.releases import RELEASES

    found = (entries(release).get(architecture) for release in reversed(RELEASES))
    return next((entry for entry in found if entry is not None), None)


def classes_of(release: Release, model_types: tuple[str, ...]) -> tuple[str, ...]:
    """The engine classes ``release`` resolves any of ``model_types`` to, each once, in registry order."""
    found = (
        c
        for entry in entries(release).values()
        if set(entry.model_types) & set(model_types) and not entry.only_when_named
        for c in entry.classes
    )
    return tuple(dict.fromkeys(found))
