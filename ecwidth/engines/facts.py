"""How one engine release serves one architecture: a registry entry, as data.

The entries live in one file per release, ``ecwidth/engines/registries/<engine>-<version>.toml``,
keyed by the architecture name the engine looks up (a config's ``architectures[0]``);
``ecwidth.engines.registry`` reads them. Each entry names the model types whose
configs carry that architecture, the family module that answers for them, the
path the engine takes, the engine files the shipped width depends on (hashed per
release in ``ecwidth/engines/files.json``, so ``tools/screen_release.py`` can
screen a new release) and what it ships. A model type with no entry in a
release is not served by it (``Release.unlisted`` says why).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

#: How a release reaches a model type: its own class, transformers' classes through its backend, or not at all.
Path = Literal["native", "backend", "none"]


@dataclass(frozen=True)
class Serving:
    """One release's entry for one architecture."""

    #: ``native``, ``backend`` (the engine's Transformers backend) or ``none``.
    path: Path
    #: the engine's class names the architecture resolves to, e.g. ``("Qwen3VLForConditionalGeneration",)``.
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
    #: configs of these model types the release still refuses, by a condition the family tests: ``{condition: why}``.
    refuses: Mapping[str, str] = field(default_factory=dict)
    #: the oldest transformers release whose classes (or config class) this path loads; empty: any.
    #: A release whose declared transformers pin excludes every release from it on cannot load the type.
    transformers: str = ""
    #: the registry key: the architecture name the engine looks up.
    architecture: str = ""
    #: the ``model_type`` values whose configs carry this architecture.
    model_types: tuple[str, ...] = ()
    #: the ``ecwidth.families`` module that answers for those model types (empty: an unserved architecture no
    #: family answers, such as an encoder-decoder speech model).
    family: str = ""
    #: picked only for a config whose ``architectures`` names it, never as its model type's entry (LightOnOCR's
    #: configs say ``mistral3``, but Mistral 3 configs are answered by ``Mistral3ForConditionalGeneration``).
    only_when_named: bool = False

    @property
    def serves(self) -> bool:
        return self.path != "none"


def not_served(why: str) -> Serving:
    """A release that cannot serve the model type, and why."""
    return Serving("none", why_not=why)
