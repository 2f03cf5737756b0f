"""Bytes per typical item and items per buffer, as frames for the notebooks: ``ecwidth.serving.sizing`` for many models.

    bytes(item) = embedding tokens × encoder output width × bytes per element

The numbers are ``ecwidth.serving.sizing.size_transfers``'s, the ones ``ecwidth size``
prints; this module only lays them out, one row per (model, item). A family
without a token rule keeps its items, unpriced, with the note
``NO_TOKEN_RULE``. The serving dtype (the dtype the producer ships in, bf16 by
default) is independent of the dtype the width was measured in: the width
does not depend on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from ecwidth.records.table import WidthTable
from ecwidth.serving.sizing import NO_TOKEN_RULE, PLAN_KEYS, TYPICAL_ITEMS, TypicalItem, bytes_per_token, size_transfers

#: One gigabyte, as buffer sizes are quoted (10⁹ bytes).
GB = 10**9

TRANSFER_COLUMNS = (
    "model", "modality", "item", "deepstack_levels", "lm_hidden_size", "encoder_width", "tokens",
    "serving_dtype", "bytes_per_token", "item_bytes", "item_mib", "buffer_bytes", "items_per_buffer",
    "items_per_buffer_at_hidden", "items_short", "note",
)  # fmt: skip
PLAN_COLUMNS = ("model", "modality", "lm_hidden_size", *PLAN_KEYS, "max_bytes_at_hidden", "note")
_COUNTS = ("tokens", "item_bytes", "items_per_buffer", "items_per_buffer_at_hidden", "items_short")


def width_summary(table: WidthTable, serving_dtype: str = "bfloat16") -> pd.DataFrame:
    """The survey view: width against LM hidden size, their ratio, DeepStack levels, bytes per token.

    ``bytes_per_token`` is in ``serving_dtype``, whatever dtype the width was measured in.
    """
    frame = table.to_frame()
    columns = [
        "model", "modality", "encoder_width", "lm_hidden_size", "width_ratio", "deepstack_levels",
        "predicted_width", "matches_prediction",
    ]  # fmt: skip
    view = frame[columns].copy()
    view["serving_dtype"] = serving_dtype
    view["bytes_per_token"] = [bytes_per_token(int(w), serving_dtype) for w in view["encoder_width"]]
    return view


def transfer_costs(
    table: WidthTable,
    *,
    serving_dtype: str = "bfloat16",
    buffer_bytes: int = GB,
    items: Iterable[TypicalItem] = TYPICAL_ITEMS,
    specs: Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """Bytes per typical item and items per buffer, at the real width and at ``hidden_size``, for every model.

    An item whose modality a model does not accept (audio for a vision model) is
    left out. An item the family has no token rule for stays, with ``tokens``,
    bytes and item counts missing and ``note`` set to ``NO_TOKEN_RULE``.
    ``items_per_buffer_at_hidden`` is what a buffer sized from the LM
    ``hidden_size`` is taken to hold, ``items_short`` how many fewer it holds.
    ``specs`` maps a table model name to its config (anything ``resolve_spec``
    takes); catalog names resolve by themselves. Columns are ``TRANSFER_COLUMNS``.

    Raises:
        ConfigError, UnknownModelTypeError: A model's config cannot be resolved.
    """
    items = tuple(items)
    specs = specs or {}
    records = []
    for model in table.models():
        measured = table.widths(model)
        widths = {m: measured[m] for m in dict.fromkeys(item.size.modality for item in items) if m in measured}
        levels = {row.modality: row.deepstack_levels for row in table.for_model(model)}
        taken = [item for item in items if item.size.modality in widths]
        sizing = size_transfers(
            specs.get(model, model), widths, serving_dtype=serving_dtype, buffer_bytes=buffer_bytes, items=taken,
            name=model,
        )  # fmt: skip
        for modality in sizing.modalities:
            for item in modality.items:
                records.append({
                    "model": model, "modality": modality.modality, "item": item.label,
                    "deepstack_levels": levels[modality.modality], "lm_hidden_size": modality.lm_hidden_size,
                    "encoder_width": modality.width, "tokens": item.tokens, "serving_dtype": serving_dtype,
                    "bytes_per_token": modality.bytes_per_token, "item_bytes": item.bytes,
                    "item_mib": float("nan") if item.bytes is None else item.bytes / 2**20,
                    "buffer_bytes": buffer_bytes, "items_per_buffer": item.items_per_buffer,
                    "items_per_buffer_at_hidden": item.items_per_buffer_at_hidden, "items_short": item.items_short,
                    "note": "" if item.tokens is not None else NO_TOKEN_RULE,
                })  # fmt: skip
    frame = pd.DataFrame(records, columns=list(TRANSFER_COLUMNS))
    return frame.astype({**dict.fromkeys(_COUNTS, "Int64"), "item_mib": "float64"})


def buffer_plans(
    table: WidthTable, *, serving_dtype: str = "bfloat16", specs: Mapping[str, Any] | None = None
) -> pd.DataFrame:
    """The buffer plan of every model (``ecwidth export --format buffer-plan``), one row per modality.

    Adds ``max_bytes_at_hidden``: the largest item's bytes at the LM
    ``hidden_size``, what a buffer sized from it would hold.

    Raises:
        ConfigError, UnknownModelTypeError: A model's config cannot be resolved.
    """
    specs = specs or {}
    records = []
    for model in table.models():
        sizing = size_transfers(specs.get(model, model), table.widths(model), serving_dtype=serving_dtype, name=model)
        for modality in sizing.modalities:
            plan = modality.buffer_plan()
            records.append({
                "model": model, "modality": modality.modality, "lm_hidden_size": modality.lm_hidden_size,
                **{key: plan[key] for key in PLAN_KEYS}, "max_bytes_at_hidden": modality.largest.bytes_at_hidden,
                "note": modality.note,
            })  # fmt: skip
    frame = pd.DataFrame(records, columns=list(PLAN_COLUMNS))
    return frame.astype({"max_tokens_per_item": "Int64", "max_bytes_per_item": "Int64", "max_bytes_at_hidden": "Int64"})
