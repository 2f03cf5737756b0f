"""The engine releases ecwidth answers for, and how a user names one (``vllm``, ``vllm==0.33.0``, ``sglang==0.5.23``).

A width is a fact about an engine release: whether the release serves a model
type at all, through which class, under which modality keys, and (for an
engine that sizes from the config rather than measuring) what it allocates.
This module only knows the releases: each is the header of its registry file
(``ecwidth/engines/registries/<engine>-<version>.toml``), whose entries
``ecwidth.engines.registry`` reads.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ecwidth.errors import UnknownEngineError

#: The folder of the registry files, one per release.
REGISTRIES = Path(__file__).parent / "registries"

#: How messages write each engine's name.
_DISPLAY = {"vllm": "vLLM", "sglang": "SGLang"}


def version_tuple(text: str) -> tuple[int, ...]:
    """``"5.20.2"`` as ``(5, 20, 2)``, for comparing release numbers without ``packaging``."""
    return tuple(int(part) for part in text.split("."))


@dataclass(frozen=True)
class Release:
    """One engine release, as its wheel declares it."""

    engine: str
    version: str
    #: the transformers requirement the release's wheel declares, e.g. ``">=5.16.1,<5.20.0"``.
    transformers: str
    #: True where the engine measures the width at startup (vLLM); False where it sizes from a config formula.
    measures: bool = True
    #: why a family with no record for this release is not served by it.
    unlisted: str = ""

    @property
    def file(self) -> str:
        """``"vllm-0.33.0.toml"``: the release's registry file in ``REGISTRIES``."""
        return f"{self.engine}-{self.version}.toml"

    @property
    def key(self) -> str:
        """``"vllm==0.33.0"``: how tables, records and ``--engine`` name it."""
        return f"{self.engine}=={self.version}"

    def __str__(self) -> str:
        """``"vLLM 0.33.0"``: how messages name it."""
        return f"{_DISPLAY.get(self.engine, self.engine)} {self.version}"

    def admits_transformers(self, oldest: str) -> bool:
        """Whether some transformers release at or after ``oldest`` satisfies this release's declared pin."""
        needed = version_tuple(oldest)
        for clause in self.transformers.split(","):
            operator, bound = re.fullmatch(r"\s*(==|<=|>=|<|>)\s*([0-9.]+)\s*", clause).groups()
            bound = version_tuple(bound)
            if operator in ("==", "<=") and bound < needed or operator == "<" and bound <= needed:
                return False
        return True


def _read_releases() -> tuple[Release, ...]:
    """Every release with a registry file, oldest first within an engine, from each file's header."""
    found = []
    for path in REGISTRIES.glob("*.toml"):
        head = tomllib.loads(path.read_text(encoding="utf-8"))
        found.append(Release(head["engine"], head["version"], head["transformers"], head.get("measures", True),
                             head["unlisted"]))  # fmt: skip
        if path.name != found[-1].file:
            raise ValueError(f"{path.name} declares {found[-1].key}; name it {found[-1].file}")
    return tuple(sorted(found, key=lambda r: (r.engine != "vllm", r.engine, version_tuple(r.version))))


#: vLLM first, then the others; oldest first within an engine; each pin read from the wheel's METADATA.
RELEASES: tuple[Release, ...] = _read_releases()
#: The release an unnamed or version-less ``vllm`` means: the newest vLLM ecwidth knows.
DEFAULT: Release = [r for r in RELEASES if r.engine == "vllm"][-1]
#: What tables written before engines were recorded answer for.
LEGACY: Release = RELEASES[0]


def _known(key: str) -> Release:
    """The release whose ``key`` is ``key``; its registry file must be there."""
    return next(r for r in RELEASES if r.key == key)


#: The releases ecwidth answers for, by name, for code and tests that mean one of them.
VLLM_0_32: Release = _known("vllm==0.32.0")
VLLM_0_33: Release = _known("vllm==0.33.0")
SGLANG_0_5_23: Release = _known("sglang==0.5.23")


def known() -> str:
    """``"vllm==0.32.0, vllm==0.33.0, sglang==0.5.23"`` for messages."""
    return ", ".join(release.key for release in RELEASES)


def release(name: str | Release | None = None) -> Release:
    """The release ``name`` means: ``None`` or ``"vllm"`` the default, ``"sglang"`` its newest, ``"E==V"`` exactly.

    Raises:
        UnknownEngineError: An engine or version ecwidth does not know; names the known ones.
    """
    if name is None:
        return DEFAULT
    if isinstance(name, Release):
        if name in RELEASES:
            return name
        raise UnknownEngineError(f"unknown engine release {name.key}; known: {known()}")
    if not isinstance(name, str):
        raise UnknownEngineError(
            f"an engine is named as a string such as 'vllm==0.33.0', got {name!r}; known: {known()}"
        )
    engine, _, version = name.strip().lower().partition("==")
    engine, version = engine.strip(), version.strip()
    matches = [r for r in RELEASES if r.engine == engine and (not version or r.version == version)]
    if not matches:
        engines = sorted({r.engine for r in RELEASES})
        what = f"engine {engine!r}" if engine not in engines else f"{engine} version {version!r}"
        raise UnknownEngineError(f"unknown {what}; known: {known()} (a bare engine name means its newest)")
    return matches[-1]
