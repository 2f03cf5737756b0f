"""The engine releases ecwidth answers for, and how a user names one (``vllm``, ``vllm==0.33.0``, ``sglang==0.5.23``).

A width is a fact about an engine release: whether the release serves a model
type at all, through which class, under which modality keys, and (for an
engine that sizes from the config rather than measuring) what it allocates.
This module only knows the releases; each family's facts per release live in
its adapter's ``serving`` record (``ecwidth.engines.facts``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ecwidth.errors import UnknownEngineError


@dataclass(frozen=True)
class Release:
    """One engine release, as its wheel declares it."""

    engine: str
    version: str
    #: the transformers range the release declares (its wheel's requirement).
    transformers: str
    #: True where the engine measures the width at startup (vLLM); False where it sizes from a config formula.
    measures: bool = True

    @property
    def key(self) -> str:
        """``"vllm==0.33.0"``: how tables, records and ``--engine`` name it."""
        return f"{self.engine}=={self.version}"

    def __str__(self) -> str:
        return f"{self.engine} {self.version}"


#: Oldest first within an engine; read from each wheel's metadata.
RELEASES: tuple[Release, ...] = (
    Release("vllm", "0.32.0", ">=5.16.1,<5.20.0"),
    Release("vllm", "0.33.0", ">=5.16.1,<5.21.0"),
    Release("sglang", "0.5.23", "==5.19.0", measures=False),
)
#: The release an unnamed or version-less ``vllm`` means: the newest vLLM ecwidth knows.
DEFAULT: Release = [r for r in RELEASES if r.engine == "vllm"][-1]
#: What tables written before engines were recorded answer for.
LEGACY: Release = RELEASES[0]


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
    matches = [r for r in RELEASES if r.engine == engine.strip() and (not version or r.version == version.strip())]
    if not matches:
        engines = sorted({r.engine for r in RELEASES})
        what = f"engine {engine!r}" if engine.strip() not in engines else f"{engine} version {version.strip()!r}"
        raise UnknownEngineError(f"unknown {what}; known: {known()} (a bare engine name means its newest)")
    return matches[-1]
