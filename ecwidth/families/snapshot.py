"""A remote-code family measured through its checkpoint's own modelling code, where the user trusts it.

Without ``--trust-remote-code`` an engine-only family is read as data and
answered from the engine's rule. A family that declares ``snapshot_code``
says how the checkpoint's own classes (the files its ``auto_map`` names,
which the user already holds beside ``config.json``) build the encoder and
encode one item; with the flag, ``snapshot_adapter`` turns the family into
one that builds and measures those classes as any transformers family is
measured, zero weights included. The engine's rule still gives the
prediction, so a snapshot whose code ships another width is a mismatch the
measurement reports.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ecwidth.errors import ConfigError, EcwidthError, UnmeasurableError, one_line
from ecwidth.families.adapter import (
    MODALITY_ORDER,
    FamilyAdapter,
    find_adapter,
    resolve,
    rows,
    supported_model_types,
)
from ecwidth.families.items import ItemKind

if TYPE_CHECKING:
    import torch
    from torch import nn


@dataclass(frozen=True)
class SnapshotCode:
    """How a checkpoint's own classes encode: the auto class that builds them, the submodules of the encoder,
    the method or module (a dotted path on the model) that turns one item's inputs into what the language model
    takes (a tensor, or a tuple that starts with it), and each modality's item."""

    auto_class: str
    encoder_attributes: tuple[str, ...]
    feature_method: str
    items: Mapping[str, ItemKind]


def check_trusted_code_measures(spec: Any) -> None:
    """Refuse to measure, with ``--trust-remote-code``, a remote-code family whose own code ecwidth cannot enter.

    Raises:
        UnmeasurableError: The family declares no ``snapshot_code``; names the families that do.
    """
    family = find_adapter(spec.model_type)
    if family is not None and family.engine_only and family.snapshot_code is None:
        entered = [t for t in supported_model_types() if find_adapter(t).snapshot_code is not None]
        raise UnmeasurableError(
            f"{spec.name} ({spec.model_type}): ecwidth knows no way into this family's own modelling code (it has "
            f"one for {', '.join(entered)}), so --trust-remote-code cannot measure it; `ecwidth predict` gives the "
            "engine's rule"
        )


def snapshot_adapter(adapter: FamilyAdapter) -> FamilyAdapter:
    """``adapter``'s family, built from the checkpoint's own code and measured.

    Raises:
        ValueError: The family declares no ``snapshot_code``.
    """
    return _snapshot_class(type(adapter))()


@functools.cache
def _snapshot_class(family: type[FamilyAdapter]) -> type[FamilyAdapter]:
    code = family.snapshot_code
    if code is None:
        raise ValueError(f"{family.__name__} declares no snapshot_code: its checkpoint's classes are never built")

    class SnapshotAdapter(family):  # type: ignore[misc, valid-type]
        engine_only = False
        predicted_only: Mapping[str, str] = {}
        encoder_attributes = code.encoder_attributes
        items = code.items

        def config_modalities(self, config: Any) -> tuple[str, ...]:
            """What the engine's rule ships for this config, of the modalities the snapshot's code takes."""
            shipped = family().predict(config)  # the family as it answers without the flag: the engine's rule
            return tuple(modality for modality in MODALITY_ORDER if modality in shipped and modality in code.items)

        def construct(self, config: Any, dtype: torch.dtype) -> nn.Module:
            """The class this checkpoint's files define, built from its config.

            The class is looked up in the folder's own files every time: ``AutoModel.from_config`` keeps the
            first remote class it met for a config class, so a second checkpoint whose configuration code is
            the same file but whose modelling code differs would be built with the first one's.
            """
            from transformers.dynamic_module_utils import get_class_from_dynamic_module

            try:
                with _transformers_quiet():  # what fails is said once, in the error below, not logged first
                    model_class = get_class_from_dynamic_module(
                        config.auto_map[code.auto_class], config.name_or_path, local_files_only=True
                    )
                    return model_class._from_config(config, dtype=dtype)  # as AutoModel.from_config builds it
            except EcwidthError:  # a deadline that expired while the code ran is the deadline's to report
                raise
            except Exception as error:  # the checkpoint's code may raise anything: a package it imports, missing
                raise ConfigError(
                    f"the checkpoint's modelling code could not build the model: {type(error).__name__}: "
                    f"{one_line(error)}; install what it names, or leave out --trust-remote-code to answer from "
                    "the engine's rule"
                ) from error

        def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
            output = resolve(model, code.feature_method)(**item)
            return rows(output[0] if isinstance(output, tuple) else output)

    SnapshotAdapter.__name__ = SnapshotAdapter.__qualname__ = f"Snapshot{family.__name__}"
    return SnapshotAdapter


@contextmanager
def _transformers_quiet() -> Iterator[None]:
    """transformers logs nothing for the block (it logs a failed import of remote code before raising it)."""
    from transformers.utils import logging

    previous = logging.get_verbosity()
    logging.set_verbosity(logging.CRITICAL)
    try:
        yield
    finally:
        logging.set_verbosity(previous)
