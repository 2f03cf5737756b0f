"""What one item costs to ship from the EC producer to the consumer, and how many fit in a buffer.

    bytes(item) = embedding tokens × encoder output width × bytes per element

Token counts come from each family's own processor rules
(``adapter.embed_tokens``); widths come from measurement. A family may have no
token rule (its width still measures): its items are kept, unpriced, with the
note ``NO_TOKEN_RULE``. The serving dtype (the dtype the producer ships in,
bf16 by default) is independent of the dtype the width was measured in: the
width does not depend on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd
import torch

from ecwidth.adapter import ItemSize, adapter_for
from ecwidth.configs import resolve_spec
from ecwidth.devices import DTYPES
from ecwidth.errors import NoTokenRuleError
from ecwidth.table import WidthTable

#: One gigabyte, as buffer sizes are quoted (10⁹ bytes).
GB = 10**9

#: Element sizes of the dtypes a producer ships in, plus the 8-bit float some stacks use.
SERVING_DTYPES: dict[str, int] = {"float32": 4, "bfloat16": 2, "float16": 2, "float8_e4m3fn": 1}

#: The note on an item a family cannot count tokens for.
NO_TOKEN_RULE = "no token rule for this family"


@dataclass(frozen=True)
class TypicalItem:
    """A real-world item to price: a label for tables and its size."""

    label: str
    size: ItemSize


TYPICAL_ITEMS: tuple[TypicalItem, ...] = (
    TypicalItem("image 448×448", ItemSize("image", height=448, width=448)),
    TypicalItem("image 1024×1024", ItemSize("image", height=1024, width=1024)),
    TypicalItem("video 8 frames 448×448", ItemSize("video", height=448, width=448, frames=8)),
    TypicalItem("audio 30 s", ItemSize("audio", seconds=30.0)),
)

TRANSFER_COLUMNS = (
    "model", "modality", "item", "deepstack_levels", "lm_hidden_size", "encoder_width", "tokens",
    "serving_dtype", "bytes_per_token", "item_bytes", "item_mib", "buffer_bytes", "items_per_buffer", "note",
)  # fmt: skip


def dtype_bytes(dtype: str | torch.dtype) -> int:
    """Bytes per element of a serving dtype (``"bfloat16"`` or ``torch.bfloat16`` -> 2).

    Raises:
        ValueError: Unknown dtype name; lists the known ones.
    """
    if isinstance(dtype, torch.dtype):
        return dtype.itemsize
    name = str(dtype).removeprefix("torch.")
    if name in SERVING_DTYPES:
        return SERVING_DTYPES[name]
    if name in DTYPES:
        return DTYPES[name].itemsize
    raise ValueError(f"unknown serving dtype {dtype!r}; use one of {', '.join(SERVING_DTYPES)}")


def bytes_per_token(width: int, dtype: str | torch.dtype = "bfloat16") -> int:
    """Bytes one embedding token takes on the wire: ``width × dtype bytes``."""
    return width * dtype_bytes(dtype)


def item_bytes(tokens: int, width: int, dtype: str | torch.dtype = "bfloat16") -> int:
    """Bytes one item takes on the wire: ``tokens × width × dtype bytes``."""
    return tokens * bytes_per_token(width, dtype)


def items_per_buffer(bytes_per_item: int, buffer_bytes: int = GB) -> int:
    """How many whole items fit in a transfer buffer of ``buffer_bytes``.

    Raises:
        ValueError: ``bytes_per_item`` is not positive.
    """
    if bytes_per_item <= 0:
        raise ValueError(f"an item takes a positive number of bytes, got {bytes_per_item}")
    return buffer_bytes // bytes_per_item


def item_tokens(config: Any, item: ItemSize) -> int:
    """Embedding tokens of one real item, by the model family's own processor rules.

    ``config`` is anything ``resolve_spec`` takes.

    Raises:
        UnknownModelTypeError: No adapter serves the config.
        NoTokenRuleError: The family has no token rule for the item's modality.
    """
    config = resolve_spec(config).config
    return int(adapter_for(config.model_type).embed_tokens(config, item))


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
    """Bytes per typical item and items per buffer, for every model and measured modality.

    An item whose modality a model does not accept (audio for a vision model) is
    left out. An item the family has no token rule for stays, with ``tokens``,
    bytes and ``items_per_buffer`` missing and ``note`` set to ``NO_TOKEN_RULE``.
    ``specs`` maps a table model name to its config (anything ``resolve_spec``
    takes); catalog names resolve by themselves. Columns are ``TRANSFER_COLUMNS``.

    Raises:
        ConfigError, UnknownModelTypeError: A model's config cannot be resolved.
    """
    items = tuple(items)
    specs = specs or {}
    records = []
    for model in table.models():
        spec = resolve_spec(specs.get(model, model))
        rows = {row.modality: row for row in table.for_model(model)}
        for item in items:
            row = rows.get(item.size.modality)
            if row is None:
                continue
            record = {
                "model": model,
                "modality": row.modality,
                "item": item.label,
                "deepstack_levels": row.deepstack_levels,
                "lm_hidden_size": row.lm_hidden_size,
                "encoder_width": row.encoder_width,
                "tokens": pd.NA,
                "serving_dtype": serving_dtype,
                "bytes_per_token": bytes_per_token(row.encoder_width, serving_dtype),
                "item_bytes": pd.NA,
                "item_mib": float("nan"),
                "buffer_bytes": buffer_bytes,
                "items_per_buffer": pd.NA,
                "note": "",
            }
            try:
                tokens = item_tokens(spec, item.size)
            except NoTokenRuleError:
                record["note"] = NO_TOKEN_RULE
            else:
                size = item_bytes(tokens, row.encoder_width, serving_dtype)
                record.update(
                    tokens=tokens, item_bytes=size, item_mib=size / 2**20,
                    items_per_buffer=items_per_buffer(size, buffer_bytes),
                )  # fmt: skip
            records.append(record)
    frame = pd.DataFrame(records, columns=list(TRANSFER_COLUMNS))
    return frame.astype({"tokens": "Int64", "item_bytes": "Int64", "items_per_buffer": "Int64", "item_mib": "float64"})
