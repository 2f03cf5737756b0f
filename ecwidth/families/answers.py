"""What ecwidth answers per engine release, as JSON: per family (``ecwidth models --families``) and per
architecture the release's registry holds (``ecwidth engines --architectures``).

Both read the family adapters for the width rule and the release's registry
(``ecwidth.engines.registry``) for how the release serves it, and build
nothing, so they answer without torch.
"""

from __future__ import annotations

from typing import Any

from ecwidth.engines import registry
from ecwidth.engines.facts import Serving
from ecwidth.engines.releases import Release
from ecwidth.families.adapter import MODALITY_ORDER, FamilyAdapter, adapter_for


def width_rules(adapter: FamilyAdapter) -> dict[str, str]:
    """``{modality or "*": rule}`` as the docs and JSON write it."""
    return {modality: str(rule) for modality, rule in adapter.width_fields.items()} or {"*": "text hidden size"}


def family_record(model_type: str, release: Release) -> dict[str, Any]:
    """A model type's family record for one engine release, as JSON: ``ecwidth models --families`` and the docs.

    Raises:
        UnknownModelTypeError: No adapter serves ``model_type``.
    """
    adapter = adapter_for(model_type)
    record = adapter.serving_for(release, model_type)
    return {
        "model_type": model_type,
        "adapter": type(adapter).__name__,
        "engine": {"name": release.engine, "version": release.version},
        "serves": record.serves,
        "path": record.path,
        "classes": list(registry.classes_of(release, adapter.model_types)),
        "files": list(record.files),
        "ships": record.ships,
        "why_not": record.why_not,
        "keys": dict(record.keys),
        "options": sorted(record.options),
        "unserved": dict(record.unserved),
        "unserved_with": {option: dict(whys) for option, whys in record.unserved_with.items()},
        "transformers": record.transformers,
        "width_rule": width_rules(adapter),
        "custom_predict": type(adapter).predict is not FamilyAdapter.predict,
        "look_alikes": list(adapter.look_alikes),
        "items": {modality: type(kind).__name__ for modality, kind in adapter.items.items()},
        "predicted_only": dict(adapter.predicted_only),
        "measured_with": adapter.measured_with,
        "engine_only": adapter.engine_only,
    }


def shipped_modalities(adapter: FamilyAdapter, record: Serving) -> list[str]:
    """The modalities the release ships for the family, in table order, less those it cannot ship at all."""
    taken = set(adapter.items) | set(adapter.predicted_only) | set(adapter.takes)
    ordered = [m for m in MODALITY_ORDER if m in taken] + sorted(taken - set(MODALITY_ORDER))
    return [m for m in ordered if m not in record.unserved]


def how_answered(adapter: FamilyAdapter, modality: str) -> str:
    """``measured`` where ecwidth builds the tower and encodes an item; ``rule`` where it answers from the
    engine's rule read from the config (an engine-only family, or a modality it cannot encode without a package
    it does not install: the record's ``measured_with`` names that package, with which it is measured)."""
    return "rule" if adapter.engine_only and not adapter.items or modality in adapter.predicted_only else "measured"


def architecture_rule(adapter: FamilyAdapter) -> dict[str, str]:
    """``width_rules``, or, for a family whose ``predict`` is code and names no field, where the rule is said."""
    if not adapter.width_fields and type(adapter).predict is not FamilyAdapter.predict:
        return {"*": "the engine's formula in the family's predict (see ships)"}
    return width_rules(adapter)


def architecture_records(release: Release) -> list[dict[str, Any]]:
    """One record per architecture ``release``'s registry holds, sorted by architecture: what it serves and how."""
    out = []
    for architecture, entry in registry.entries(release).items():
        model_type = entry.model_types[0]
        adapter = adapter_for(model_type) if entry.family else None  # no family: an architecture no release serves
        record = adapter.serving_for(release, model_type, architecture) if adapter is not None else entry
        modalities = shipped_modalities(adapter, record) if adapter is not None and record.serves else []
        row: dict[str, Any] = {
            "engine": release.key,
            "architecture": architecture,
            "model_type": model_type,
            "model_types": list(entry.model_types),
            "family": entry.family,
            "served": record.serves,
            "path": record.path,
            "classes": list(entry.classes),
            "modalities": [record.keys.get(m, m) for m in modalities],
            "answered_by": {record.keys.get(m, m): how_answered(adapter, m) for m in modalities},
            "width_rule": architecture_rule(adapter) if adapter is not None else {},
            "ships": record.ships,
            "files": list(record.files),
        }
        if adapter is not None and adapter.measured_with and record.serves:
            row["measured_with"] = adapter.measured_with
        if not record.serves:
            row["why_not"] = record.why_not
        out.append(row)
    return out
