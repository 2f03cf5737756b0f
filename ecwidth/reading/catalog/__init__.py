"""Published multimodal architectures, shipped as package data.

Each ``<name>.json`` holds one published ``config.json`` and says where it
comes from (``source``): the file as published, copied from a verbatim copy
found in public code, or, where none was found, its architecture fields
cross-checked against public transcriptions, marked ``RECONSTRUCTED`` when no
copy confirms them all. ``published`` is the model's release date
(``YYYY-MM-DD`` or ``YYYY-MM``, ``null`` where no source gives one) and
``published_from`` says where that date comes from; the catalog is listed
newest first. ``modalities`` records what the model takes, as its
adapter reads the config (a test keeps the two equal), so listing the catalog
needs neither torch nor transformers. Defaults of transformers config classes
are not published models and never appear here. An entry too large to keep as
text (MiniMax-M3-NVFP4 lists 22422 quantized layers: 3.2 MB) is stored as
``<name>.json.gz``, its content unchanged.
"""

from __future__ import annotations

import difflib
import gzip
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ecwidth.errors import ConfigError


@dataclass(frozen=True)
class CatalogEntry:
    """One published model: short name, hub id, release date and its source, modalities, provenance, raw config."""

    name: str
    hf_id: str
    published: str | None
    published_from: str | None
    modalities: tuple[str, ...]
    source: str
    config: dict[str, Any]


@cache
def _entries() -> dict[str, CatalogEntry]:
    entries = {}
    for path in resources.files(__name__).iterdir():
        if path.name.endswith(".json"):
            data = json.loads(path.read_text())
        elif path.name.endswith(".json.gz"):
            data = json.loads(gzip.decompress(path.read_bytes()))
        else:
            continue
        entries[data["name"]] = CatalogEntry(
            data["name"], data["hf_id"], data["published"], data["published_from"],
            tuple(data["modalities"]), data["source"], data["config"],
        )  # fmt: skip
    return entries


def catalog_names() -> list[str]:
    """Short names of every catalog model, newest first: the order every listing of the catalog uses.

    Entries are ordered by ``published``, latest first (a day-dated entry
    before a month-dated one of the same month); undated entries come last.
    Ties, and the undated entries, go by name.
    """
    entries = _entries()
    by_name = sorted(entries)
    dated = sorted((n for n in by_name if entries[n].published), key=lambda n: entries[n].published, reverse=True)
    return dated + [n for n in by_name if not entries[n].published]


def catalog_entry(name: str) -> CatalogEntry:
    """The catalog entry called ``name``.

    Raises:
        ConfigError: No such model; suggests close names and lists the catalog.
    """
    entries = _entries()
    if name not in entries:
        close = difflib.get_close_matches(name, entries, n=3)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        raise ConfigError(
            f"no catalog model named {name!r}.{hint} Run `ecwidth models` for the list, "
            "or pass a hub id ORG/NAME, a checkpoint folder or a config.json."
        )
    return entries[name]
