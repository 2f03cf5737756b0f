"""How one engine release serves one family: a family's engine facts, as data.

Each adapter holds ``serving``, a mapping from a release key
(``ecwidth.engines.releases.VLLM_0_33``) to a ``Serving`` record. Records are
data so that one fact can differ per release without prose, and so that a new
release is screened by hashing the ``files`` each record names
(``tools/screen_release.py``; the hashes are in ``ecwidth/engines/files.json``).
A release a family has no record for does not serve it (``Release.unlisted``
says why).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33

#: How a release reaches a model type: its own class, transformers' classes through its backend, or not at all.
Path = Literal["native", "backend", "none"]
#: The option set of an engine class that takes ``--video-pruning-rate``.
PRUNING: frozenset[str] = frozenset({"video_pruning_rate"})


@dataclass(frozen=True)
class Serving:
    """One release's view of one family's model types."""

    #: ``native``, ``backend`` (the engine's Transformers backend) or ``none``.
    path: Path
    #: the engine's class names for the family, e.g. ``("Qwen3VLForConditionalGeneration",)``.
    classes: tuple[str, ...] = ()
    #: engine source files the shipped width depends on, relative to the wheel's root (``vllm/model_executor/...``).
    files: tuple[str, ...] = ()
    #: one line: what the engine ships, e.g. ``"vision_config.out_hidden_size x (1 + DeepStack levels)"``.
    ships: str = ""
    #: ``path == "none"``: why the release cannot serve the model type.
    why_not: str = ""
    #: ecwidth's modality name -> the engine's key, where they differ (Kimi-K2.5 under SGLang: vision_chunk -> image).
    keys: Mapping[str, str] = field(default_factory=dict)
    #: runtime options (``RuntimeOptions`` field names) the engine's class takes.
    options: frozenset[str] = frozenset()
    #: modalities this release cannot ship whatever the options, each with why.
    unserved: Mapping[str, str] = field(default_factory=dict)
    #: modalities this release cannot ship when an option is on: ``{option: {modality: why}}``.
    unserved_with: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: the oldest transformers release whose classes (or config class) this path loads; empty: any.
    #: A release whose declared transformers pin excludes every release from it on cannot load the type.
    transformers: str = ""

    @property
    def serves(self) -> bool:
        return self.path != "none"

    def same_as(self, **changes: Any) -> Serving:
        """This record for a later release, with ``changes`` applied."""
        return replace(self, **changes)


def not_served(why: str) -> Serving:
    """A release that cannot serve the model type, and why."""
    return Serving("none", why_not=why)


def every_vllm(record: Serving) -> dict[str, Serving]:
    """``record`` for each vLLM release ecwidth knows: for families whose vLLM path did not move."""
    return {VLLM_0_32: record, VLLM_0_33: record}
