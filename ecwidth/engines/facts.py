"""How one engine release serves one family: a family's engine facts, as data.

Each adapter holds ``serving``, a mapping from a release key (``"vllm==0.32.0"``)
to a ``Serving`` record. Records are data so that a new release is screened by
hashing the ``files`` each record names, and so that one fact can differ per
release without prose. ``same_as`` copies a record to the next release where
nothing moved, overriding only what did.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

#: How a release reaches a model type: its own class, transformers' classes through its backend, or not at all.
Path = Literal["native", "backend", "none"]


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
    #: ecwidth's modality name -> the engine's key, where they differ (Kimi-K2.5 under vLLM: image -> vision_chunk).
    keys: Mapping[str, str] = field(default_factory=dict)
    #: runtime options (``RuntimeOptions`` field names) the engine's class takes.
    options: frozenset[str] = frozenset()
    #: modalities this release cannot ship whatever the options, each with why.
    unserved: Mapping[str, str] = field(default_factory=dict)
    #: modalities this release cannot ship when an option is on: ``{option: {modality: why}}``.
    unserved_with: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: for an engine that sizes from the config: modality -> the dotted config field its formula reads.
    sizer: Mapping[str, str] = field(default_factory=dict)

    @property
    def serves(self) -> bool:
        return self.path != "none"

    def same_as(self, **changes: Any) -> Serving:
        """This record for a later release, with ``changes`` applied."""
        return replace(self, **changes)


def not_served(why: str) -> Serving:
    """A release that cannot serve the model type, and why."""
    return Serving("none", why_not=why)
