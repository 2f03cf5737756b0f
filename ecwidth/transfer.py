"""What one item costs to ship from the EC producer to the consumer, and how DeepStack grows it.

    bytes(item) = embedding tokens × encoder output width × bytes per element

Token counts come from each family's own processor rules
(``adapter.embed_tokens``); widths come from measurement. The serving dtype
(the dtype the producer ships in, bf16 by default) is independent of the
dtype the width was measured in: the width does not depend on it.

``deepstack_variant`` rewrites a real published config to 0..N DeepStack
levels, so width growth is measured on real architectures rather than assumed.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd
import torch

from ecwidth.adapter import ItemSize, adapter_for
from ecwidth.catalog import catalog_entry
from ecwidth.configs import resolve_spec
from ecwidth.devices import DTYPES
from ecwidth.errors import ConfigError
from ecwidth.sizing import as_config
from ecwidth.table import WidthTable

#: One gigabyte, as buffer sizes are quoted (10⁹ bytes).
GB = 10**9

#: Element sizes of the dtypes a producer ships in, plus the 8-bit float some stacks use.
SERVING_DTYPES: dict[str, int] = {"float32": 4, "bfloat16": 2, "float16": 2, "float8_e4m3fn": 1}


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
    "serving_dtype", "bytes_per_token", "item_bytes", "item_mib", "buffer_bytes", "items_per_buffer",
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

    Raises:
        UnknownModelTypeError: No adapter serves the config.
    """
    config = as_config(config)
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
    left out. ``specs`` maps a table model name to its config; catalog names
    resolve by themselves. Columns are ``TRANSFER_COLUMNS``.

    Raises:
        ConfigError, UnknownModelTypeError: A model's config cannot be resolved.
    """
    items = tuple(items)
    specs = specs or {}
    records = []
    for model in table.models():
        config = as_config(specs.get(model, model))
        rows = {row.modality: row for row in table.for_model(model)}
        for item in items:
            row = rows.get(item.size.modality)
            if row is None:
                continue
            tokens = item_tokens(config, item.size)
            size = item_bytes(tokens, row.encoder_width, serving_dtype)
            records.append(
                {
                    "model": model,
                    "modality": row.modality,
                    "item": item.label,
                    "deepstack_levels": row.deepstack_levels,
                    "lm_hidden_size": row.lm_hidden_size,
                    "encoder_width": row.encoder_width,
                    "tokens": tokens,
                    "serving_dtype": serving_dtype,
                    "bytes_per_token": bytes_per_token(row.encoder_width, serving_dtype),
                    "item_bytes": size,
                    "item_mib": size / 2**20,
                    "buffer_bytes": buffer_bytes,
                    "items_per_buffer": items_per_buffer(size, buffer_bytes),
                }
            )
    return pd.DataFrame(records, columns=list(TRANSFER_COLUMNS))


# -- DeepStack variants ------------------------------------------------------------------


def _deepstack_vision_config(raw: dict[str, Any]) -> dict[str, Any]:
    """The (mutable) vision config dict that holds ``deepstack_visual_indexes``."""
    for holder in (raw, raw.get("thinker_config")):
        vision = holder.get("vision_config") if isinstance(holder, dict) else None
        if isinstance(vision, dict) and "deepstack_visual_indexes" in vision:
            return vision
    raise ConfigError(
        f"model_type {raw.get('model_type')!r} has no DeepStack vision config (no "
        "vision_config.deepstack_visual_indexes); DeepStack variants need a DeepStack family such as qwen3_vl"
    )


def deepstack_indexes(depth: int, levels: int) -> list[int]:
    """``levels`` distinct vision-layer indexes spread evenly below ``depth``.

    ``deepstack_indexes(24, 3) == [5, 11, 17]``, the published Qwen3-VL-2B/4B choice.

    Raises:
        ValueError: ``levels`` is negative or more than ``depth`` layers.
    """
    if not 0 <= levels <= depth:
        raise ValueError(f"a vision tower of depth {depth} has room for 0..{depth} DeepStack levels, not {levels}")
    return [(i + 1) * depth // (levels + 1) - 1 if levels < depth else i for i in range(levels)]


def deepstack_variant(raw_config: Mapping[str, Any], levels: int) -> dict[str, Any]:
    """A deep copy of a real raw config with ``levels`` DeepStack levels (indexes below the vision depth).

    Everything else is the published architecture, so measuring the variant
    shows what DeepStack packing alone does to the width.

    Raises:
        ConfigError: The config is not a DeepStack family, or has no vision depth.
        ValueError: ``levels`` does not fit the vision depth.
    """
    raw = copy.deepcopy(dict(raw_config))
    vision = _deepstack_vision_config(raw)
    depth = vision.get("depth", vision.get("num_hidden_layers"))
    if not isinstance(depth, int) or depth <= 0:
        raise ConfigError("the DeepStack vision config has no positive 'depth' to place levels below")
    vision["deepstack_visual_indexes"] = deepstack_indexes(depth, levels)
    return raw


GROWTH_COLUMNS = (
    "model", "levels", "deepstack_visual_indexes", "modality", "encoder_width", "out_hidden_size",
    "expected_width", "lm_hidden_size", "width_over_hidden", "build_s", "encode_s",
)  # fmt: skip


def deepstack_growth(
    model: str,
    levels: Iterable[int] = range(6),
    *,
    modalities: Iterable[str] | None = None,
    device: str = "auto",
    dtype: str = "auto",
) -> pd.DataFrame:
    """Measure ``model`` (a DeepStack catalog model) rebuilt with each number of DeepStack ``levels``.

    ``expected_width`` is ``out_hidden_size × (1 + levels)`` for vision
    modalities, to be compared with the measured ``encoder_width``; it is NaN
    for modalities the vision tower does not serve. Columns are ``GROWTH_COLUMNS``.

    Raises:
        ConfigError: ``model`` is not a DeepStack catalog model.
        ValueError: A level count does not fit the vision depth.
        EncodeError: Encoding a variant failed.
    """
    from ecwidth.measure import measure
    from ecwidth.sizing import VISION_MODALITIES, vision_out_hidden_size

    raw = catalog_entry(model).config
    records = []
    for count in levels:
        variant = deepstack_variant(raw, count)
        spec = resolve_spec(variant)
        result = measure(spec, None if modalities is None else list(modalities), device=device, dtype=dtype)
        out = vision_out_hidden_size(spec.config)
        indexes = _deepstack_vision_config(variant)["deepstack_visual_indexes"]
        for modality, width in sorted(result.widths.items()):
            expected = out * (1 + count) if out is not None and modality in VISION_MODALITIES else None
            records.append(
                {
                    "model": model,
                    "levels": count,
                    "deepstack_visual_indexes": list(indexes),
                    "modality": modality,
                    "encoder_width": width,
                    "out_hidden_size": out,
                    "expected_width": expected,
                    "lm_hidden_size": result.lm_hidden_size,
                    "width_over_hidden": width / result.lm_hidden_size,
                    "build_s": result.build_s,
                    "encode_s": result.encode_s,
                }
            )
    frame = pd.DataFrame(records, columns=list(GROWTH_COLUMNS))
    frame["expected_width"] = frame["expected_width"].astype("Int64")
    return frame
