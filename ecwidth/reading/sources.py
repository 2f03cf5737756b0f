"""Where a model named by a string lives: the catalog, a local path, or a hub id in the Hugging Face cache.

A user names a model the way they name it to transformers: a catalog name or
the hub id of a catalog entry, any hub id ``ORG/NAME[@revision]``, a checkpoint
folder, or a config file. ``locate`` finds the config it means and the name its
table rows get, reading nothing but the config: a hub id resolves through the
local Hugging Face cache (``HF_HUB_CACHE``, ``HF_HOME``), and only where the hub
can be reached (``HF_HUB_OFFLINE`` unset) is ``config.json`` fetched, never
weights, processors or tokenizers.

Imports neither torch nor transformers: the notebooks check their ``models``
with it before any work starts.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ecwidth.errors import ConfigError
from ecwidth.reading.catalog import CatalogEntry, catalog_entry, catalog_names
from ecwidth.reading.mistral import PARAMS_FILE

#: ``ORG/NAME`` or ``ORG/NAME@revision``, with the hub's characters for names.
_HUB_ID = re.compile(r"(?P<repo>[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)(?:@(?P<revision>[^\s@]+))?")
#: How much of a name an error message quotes: a 200,000-character name is one short line, not 200 kB.
_SHOWN_CHARS = 200
_TRUE = {"1", "ON", "YES", "TRUE"}


@dataclass(frozen=True)
class Source:
    """A located model: the name its rows get, and either its catalog entry or its config file."""

    name: str
    entry: CatalogEntry | None = None
    path: Path | None = None

    @property
    def origin(self) -> str:
        """Where the config comes from, for messages and provenance."""
        return f"catalog:{self.entry.name}" if self.entry is not None else str(self.path)


def hub_cache_dir() -> Path:
    """The Hugging Face hub cache, read from the environment now, as huggingface_hub reads it at import."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    cache_home = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache_home).expanduser() / "huggingface" / "hub"


def hub_offline() -> bool:
    """Whether ``HF_HUB_OFFLINE`` forbids reaching the hub."""
    return os.environ.get("HF_HUB_OFFLINE", "").upper() in _TRUE


def parse_hub_id(text: str) -> tuple[str, str | None] | None:
    """``(repo_id, revision)`` when ``text`` is spelled like a hub id, else ``None``."""
    match = _HUB_ID.fullmatch(text)
    return (match["repo"], match["revision"]) if match else None


def catalog_entry_for(model: str) -> CatalogEntry | None:
    """The catalog entry a catalog name or a catalog hub id (any case) denotes, or ``None``."""
    if model in catalog_names():
        return catalog_entry(model)
    wanted = model.casefold()
    for name in catalog_names():
        entry = catalog_entry(name)
        if entry.hf_id.casefold() == wanted:
            return entry
    return None


def path_name(path: str | os.PathLike[str]) -> str:
    """The row name of a local config: its folder's name (the hub id for a cache snapshot), or a config file's stem."""
    path = Path(path).absolute()
    if path.suffix == ".json" and path.name not in ("config.json", PARAMS_FILE):
        return path.stem
    folder = path.parent if path.suffix == ".json" else path
    folder = Path(os.path.normpath(folder))
    snapshots = folder.parent
    if snapshots.name == "snapshots" and snapshots.parent.name.startswith("models--"):
        return snapshots.parent.name.removeprefix("models--").replace("--", "/", 1)
    return folder.name


def checkpoint_config(folder: Path) -> Path:
    """The config file of a checkpoint folder: ``config.json``, else a Mistral-format ``params.json`` (vLLM's
    ``auto`` config format reads either; ``ecwidth.reading.mistral``)."""
    hf, mistral = folder / "config.json", folder / PARAMS_FILE
    return mistral if not hf.exists() and mistral.exists() else hf


def hub_config_file(repo_id: str, revision: str | None = None) -> Path:
    """``config.json`` of a hub model: from the local cache, else fetched alone where the hub can be reached.

    Raises:
        ConfigError: Not cached and the hub is offline or unreachable, or the hub
            has no such model, revision or ``config.json``; says what to do.
    """
    import huggingface_hub
    from huggingface_hub.errors import EntryNotFoundError, HfHubHTTPError, HFValidationError, LocalEntryNotFoundError

    cache_dir = hub_cache_dir()
    try:
        cached = huggingface_hub.try_to_load_from_cache(repo_id, "config.json", cache_dir=cache_dir, revision=revision)
    except HFValidationError as error:  # past the hub's 96 characters, or a '--' or '..' in the id
        raise ConfigError(
            f"{_shown(repo_id)}: not a hub id the hub accepts ({_shown(str(error))}); "
            "pass the checkpoint folder or its config.json instead"
        ) from None
    if isinstance(cached, str):
        return Path(cached)
    given = repo_id if revision is None else f"{repo_id}@{revision}"
    todo = (
        f"pass the checkpoint folder or its config.json instead, or warm the cache with the config only: "
        f"`huggingface-cli download {repo_id} config.json{'' if revision is None else f' --revision {revision}'}`"
    )
    if hub_offline():
        raise ConfigError(
            f"{given}: no config.json for it in the Hugging Face cache ({cache_dir}) and HF_HUB_OFFLINE is set, "
            f"so the hub is not asked; {todo}"
        )
    try:
        return Path(huggingface_hub.hf_hub_download(repo_id, "config.json", revision=revision, cache_dir=cache_dir))
    except HfHubHTTPError as error:  # no such repo or revision, gated, or refused
        raise ConfigError(f"{given}: the hub refuses it ({error}); check the id and revision, or {todo}") from error
    except (LocalEntryNotFoundError, OSError) as error:  # the hub was not reached
        raise ConfigError(
            f"{given}: not in the Hugging Face cache ({cache_dir}) and the hub is unreachable; {todo}"
        ) from error
    except EntryNotFoundError as error:
        raise ConfigError(f"{given}: the hub model has no config.json ({error}); {todo}") from error


def _shown(text: str) -> str:
    """``text`` for a message, cut to ``_SHOWN_CHARS`` characters."""
    return text if len(text) <= _SHOWN_CHARS else f"{text[:_SHOWN_CHARS]}... ({len(text)} characters)"


def locate(model: str | os.PathLike[str], *, name: str | None = None) -> Source:
    """Find the config ``model`` names, and the name its rows get (``name`` overrides it).

    In order: a catalog name or catalog hub id, an existing path, a hub id.

    Raises:
        ConfigError: Nothing by that name: suggests close catalog names, or says
            how to make a hub id resolvable (see ``hub_config_file``).
    """
    text = os.fspath(model)
    entry = catalog_entry_for(text) if isinstance(model, str) else None
    if entry is not None:
        return Source(name or text, entry=entry)
    if "\0" in text:  # no path holds one; os.stat would raise a bare ValueError
        raise ConfigError(f"cannot read {_shown(text)!r}: a name or path never holds a NUL character")
    path = Path(text)
    try:
        exists = path.exists()
    except OSError as error:  # a name past the filesystem's limits (ENAMETOOLONG), or a path it cannot stat
        raise ConfigError(
            f"cannot read {_shown(text)}: {error.strerror or error}. Pass a config.json file or a folder holding "
            "one, a hub id ORG/NAME, or a catalog name (see `ecwidth models`)."
        ) from None
    if exists:
        file = checkpoint_config(path) if path.is_dir() else path
        return Source(name or path_name(path), path=file)
    hub_id = parse_hub_id(text) if isinstance(model, str) else None
    if hub_id is not None:
        return Source(name or text, path=hub_config_file(*hub_id))
    if "/" not in text and os.sep not in text and not text.endswith(".json") and len(text) <= _SHOWN_CHARS:
        catalog_entry(text)  # raises, suggesting close catalog names
    raise ConfigError(
        f"cannot read {_shown(text)}: no such file or folder. Pass a config.json file or a folder holding one, "
        "a hub id ORG/NAME, or a catalog name (see `ecwidth models`)."
    )
