"""Size the transfer, not only the width: bytes per token, per item and per largest item, and items per buffer.

    bytes(item) = embedding tokens × encoder output width × bytes per element

A connector that pre-registers memory (Mooncake's registered pool, vLLM's
CPU connector's shared region, a NIXL region) must hold the largest item the
processor can produce, so the width alone does not size it. Widths come from
a measurement or a width table; token counts come from each family's own
processor rules (``FamilyAdapter.embed_tokens`` and ``profile_tokens``: the
profile item is the one the engine encodes at startup, the largest the default
processor settings allow; a note says where an item priced has more). A family
may have no token rule: its width still prices a token, and its items are
kept unpriced with the note ``NO_TOKEN_RULE``.

Every modality is also priced as a stack that sizes from the LM
``hidden_size`` would price it, so the shortfall is a number, not a warning.
Video token counts are before video pruning: pruning only drops tokens, so
they bound what a buffer must hold.

No torch or pandas here; the families the token rules live in import torch.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from ecwidth.engines import releases
from ecwidth.engines.releases import Release
from ecwidth.errors import EcwidthError, NoTokenRuleError
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from ecwidth.records.units import DEFAULT_BUFFER_BYTES, dtype_bytes, format_bytes

#: The note on an item a family cannot count tokens for.
NO_TOKEN_RULE = "no token rule for this family"
#: The keys of one modality's buffer plan, in the order the file lists them (the README says what each means).
PLAN_KEYS = ("width", "serving_dtype", "bytes_per_token", "max_tokens_per_item", "max_bytes_per_item")

_ITEM_FORMS = (
    "image:HEIGHTxWIDTH (image:1024x1024), video:FRAMESxHEIGHTxWIDTH (video:8x448x448), audio:SECONDSs (audio:30s)"
)


# -- bytes on the wire ------------------------------------------------------------------------------


def bytes_per_token(width: int, dtype: Any = "bfloat16") -> int:
    """Bytes one embedding token takes on the wire: ``width × dtype bytes``."""
    return width * dtype_bytes(dtype)


def item_bytes(tokens: int, width: int, dtype: Any = "bfloat16") -> int:
    """Bytes one item takes on the wire: ``tokens × width × dtype bytes``."""
    return tokens * bytes_per_token(width, dtype)


def items_per_buffer(bytes_per_item: int, buffer_bytes: int = DEFAULT_BUFFER_BYTES) -> int:
    """How many whole items fit in a transfer buffer of ``buffer_bytes``.

    Raises:
        ValueError: ``bytes_per_item`` is not positive.
    """
    if bytes_per_item <= 0:
        raise ValueError(f"an item takes a positive number of bytes, got {bytes_per_item}")
    return buffer_bytes // bytes_per_item


# -- items ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TypicalItem:
    """A real-world item to price: a label for tables and its size."""

    label: str
    size: ItemSize


def parse_item(text: str) -> TypicalItem:
    """An item as ``ecwidth size --item`` takes it: ``image:1024x1024``, ``video:8x448x448``, ``audio:30s``.

    Raises:
        ValueError: Not one of those forms; shows them.
    """
    modality, _, dims = text.strip().partition(":")
    try:
        if modality == "audio":
            seconds = float(dims.removesuffix("s"))
            if math.isfinite(seconds) and seconds > 0:
                return TypicalItem(f"audio {seconds:g} s", ItemSize("audio", seconds=seconds))
        elif modality in ("image", "video"):
            sides = [int(side) for side in dims.lower().split("x")]
            if len(sides) == (2 if modality == "image" else 3) and min(sides) > 0:
                if modality == "image":
                    height, width = sides
                    return TypicalItem(f"image {height}×{width}", ItemSize("image", height=height, width=width))
                frames, height, width = sides
                label = f"video {frames} frames {height}×{width}"
                return TypicalItem(label, ItemSize("video", height=height, width=width, frames=frames))
    except EcwidthError:  # a size past any real item's: its own message names the bound
        raise
    except ValueError:
        pass
    raise EcwidthError(f"invalid item {text!r}; write {_ITEM_FORMS}, every number positive")


#: The items priced when none are given: two images, a short video, a 30 s clip.
TYPICAL_ITEMS: tuple[TypicalItem, ...] = tuple(
    parse_item(text) for text in ("image:448x448", "image:1024x1024", "video:8x448x448", "audio:30s")
)


def item_tokens(model: Any, item: ItemSize) -> int:
    """Embedding tokens of one real item, by the model family's own processor rules.

    ``model`` is anything ``resolve_spec`` takes.

    Raises:
        UnknownModelTypeError: No adapter serves the config.
        NoTokenRuleError: The family has no token rule for the item's modality.
    """
    config = resolve_spec(model).config
    return int(adapter_for(config.model_type).embed_tokens(config, item))


# -- sizing -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ItemCost:
    """One item priced at the real width, and as a stack that sizes from the LM ``hidden_size`` would price it.

    ``tokens`` and everything after it are ``None`` where the family has no token rule.
    """

    label: str
    tokens: int | None
    bytes: int | None
    #: whole items a buffer of the sizing's ``buffer_bytes`` holds at the real width.
    items_per_buffer: int | None
    #: whole items the same buffer would be taken to hold at ``hidden_size``.
    items_per_buffer_at_hidden: int | None
    #: bytes the item would be given at ``hidden_size``; ``bytes`` minus this is how far short that is.
    bytes_at_hidden: int | None

    @property
    def items_short(self) -> int | None:
        """How many items fewer the buffer holds than a ``hidden_size`` sizing promises."""
        return None if self.tokens is None else self.items_per_buffer_at_hidden - self.items_per_buffer

    @property
    def bytes_short(self) -> int | None:
        """How many bytes short of the item a ``hidden_size``-sized slot is (negative: room to spare)."""
        return None if self.tokens is None else self.bytes - self.bytes_at_hidden

    def as_json(self) -> dict[str, Any]:
        return {
            "item": self.label, "tokens": self.tokens, "bytes": self.bytes,
            "items_per_buffer": self.items_per_buffer, "items_per_buffer_at_hidden": self.items_per_buffer_at_hidden,
            "bytes_at_hidden": self.bytes_at_hidden, "bytes_short": self.bytes_short,
        }  # fmt: skip


@dataclass(frozen=True)
class ModalitySizing:
    """One modality: its width, what a token costs, its items, and the largest item the processor allows."""

    modality: str
    width: int
    lm_hidden_size: int
    serving_dtype: str
    items: tuple[ItemCost, ...]
    #: the engine's profile item, the largest the default processor settings allow; ``note`` says where it is not.
    largest: ItemCost
    note: str = ""

    @property
    def bytes_per_token(self) -> int:
        return bytes_per_token(self.width, self.serving_dtype)

    def buffer_plan(self) -> dict[str, Any]:
        """What a connector that pre-registers memory needs for this modality (the README documents the keys)."""
        values = (self.width, self.serving_dtype, self.bytes_per_token, self.largest.tokens, self.largest.bytes)
        plan = dict(zip(PLAN_KEYS, values, strict=True))
        return {**plan, "note": self.note} if self.note else plan

    def as_json(self) -> dict[str, Any]:
        return {
            "width": self.width, "width_ratio": self.width / self.lm_hidden_size,
            "bytes_per_token": self.bytes_per_token,
            "items": [item.as_json() for item in self.items], "largest": self.largest.as_json(), "note": self.note,
        }  # fmt: skip


@dataclass(frozen=True)
class TransferSizing:
    """One model's transfer sizes: what ``ecwidth size`` prints and ``export --format buffer-plan`` writes."""

    model: str
    model_type: str
    lm_hidden_size: int
    serving_dtype: str
    buffer_bytes: int
    modalities: tuple[ModalitySizing, ...]
    #: runtime options the widths were measured with, set away from the engine's defaults.
    options: Mapping[str, Any]
    #: the engine release the widths and modality keys are for.
    engine: Release = releases.DEFAULT

    @property
    def engine_json(self) -> dict[str, str]:
        return {"name": self.engine.engine, "version": self.engine.version}

    def buffer_plan(self) -> dict[str, Any]:
        """``{"model", "engine", "options", "modalities": {modality: plan}}``: the buffer plan file."""
        return {
            "model": self.model,
            "engine": self.engine_json,
            "options": dict(self.options),
            "modalities": {sizing.modality: sizing.buffer_plan() for sizing in self.modalities},
        }

    def render_text(self) -> str:
        """What ``ecwidth size`` prints: per modality its width, a token, each item, the largest item."""
        dtype = self.serving_dtype
        options = "".join(f", {key} {value:g}" for key, value in self.options.items())
        lines = [
            f"{self.model} ({self.model_type}) under {self.engine}: LM hidden size {self.lm_hidden_size}, "
            f"serving dtype {dtype} ({dtype_bytes(dtype)} bytes per element){options}",
            f"buffer: {self.buffer_bytes} bytes = {format_bytes(self.buffer_bytes)}",
        ]
        for sizing in self.modalities:
            lines += [
                "",
                f"{sizing.modality}: width {sizing.width} ({sizing.width / self.lm_hidden_size:g}x hidden size), "
                f"{sizing.bytes_per_token} bytes per token = {format_bytes(sizing.bytes_per_token)}",
                f"  {'item':<24} {'tokens':>7}  {'bytes':<26} {'per buffer':>10}  as sized from hidden_size",
            ]
            for cost in (*sizing.items, sizing.largest):
                if cost.tokens is None:
                    lines.append(f"  {cost.label:<24} {'-':>7}  {NO_TOKEN_RULE}")
                    continue
                short = f" ({cost.items_short} too many)" if cost.items_short else ""
                lines.append(
                    f"  {cost.label:<24} {cost.tokens:>7}  {format_bytes(cost.bytes):<26} {cost.items_per_buffer:>10}"
                    f"  {cost.items_per_buffer_at_hidden}{short}"
                )
            largest = sizing.largest
            if largest.tokens is not None and largest.bytes_short > 0:
                lines.append(
                    f"  a slot sized from hidden_size for the {largest.label}: "
                    f"{format_bytes(largest.bytes_at_hidden)}, {format_bytes(largest.bytes_short)} short of it"
                )
            if sizing.note and sizing.note != NO_TOKEN_RULE:
                lines.append(f"  note: {sizing.note}")
        return "\n".join(lines) + "\n"

    def as_json(self) -> dict[str, Any]:
        """What ``ecwidth size --json`` prints."""
        return {
            "model": self.model, "model_type": self.model_type, "lm_hidden_size": self.lm_hidden_size,
            "serving_dtype": self.serving_dtype, "dtype_bytes": dtype_bytes(self.serving_dtype),
            "buffer_bytes": self.buffer_bytes, "engine": self.engine_json, "options": dict(self.options),
            "modalities": {sizing.modality: sizing.as_json() for sizing in self.modalities},
        }  # fmt: skip


def _counted(count: Callable[[], int]) -> int | None:
    """A token count, or ``None`` where the family has no token rule."""
    try:
        return int(count())
    except NoTokenRuleError:
        return None


def _price(label: str, tokens: int | None, *, width: int, hidden: int, dtype: str, buffer_bytes: int) -> ItemCost:
    """One item at the real width and at ``hidden``; unpriced where ``tokens`` is ``None``."""
    if tokens is None:
        return ItemCost(label, None, None, None, None, None)
    size, at_hidden = item_bytes(tokens, width, dtype), item_bytes(tokens, hidden, dtype)
    return ItemCost(
        label, tokens, size, items_per_buffer(size, buffer_bytes), items_per_buffer(at_hidden, buffer_bytes), at_hidden
    )


def _larger_than_profile(costs: Iterable[ItemCost], largest: ItemCost) -> str:
    """A note where an item has more tokens than the profile item, which then bounds nothing; else ``""``."""
    over = [cost for cost in costs if cost.tokens is not None and cost.tokens > largest.tokens]
    if not over:
        return ""
    biggest = max(over, key=lambda cost: cost.tokens)
    return (
        f"the profile item ({largest.tokens} tokens) is not the largest: {biggest.label} has {biggest.tokens}; "
        "this processor bounds tokens per frame or tile, not per item, so size for the largest item you serve"
    )


def size_transfers(
    model: Any,
    widths: Mapping[str, int],
    *,
    serving_dtype: str = "bfloat16",
    buffer_bytes: int = DEFAULT_BUFFER_BYTES,
    items: Iterable[TypicalItem] | None = None,
    name: str | None = None,
    options: Mapping[str, Any] | None = None,
    engine: str | Release | None = None,
) -> TransferSizing:
    """Price every modality of ``widths`` for ``model`` (anything ``resolve_spec`` takes).

    ``widths`` is ``{modality key: width}``, measured (``measure(...).widths``) or
    from a width table, with ``options`` the runtime options it was measured
    with and ``engine`` the release whose modality keys it uses (default: the newest vLLM). ``items`` default to the ``TYPICAL_ITEMS`` of the modalities in
    ``widths``; given items must all be of those modalities. ``name`` names
    the result (default: the spec's name).

    Raises:
        ValueError: An unknown serving dtype, a buffer under one byte, or a given
            item of a modality ``widths`` lacks.
        ConfigError, UnknownModelTypeError: ``model`` cannot be resolved or has no adapter.
    """
    spec = resolve_spec(model)
    adapter = spec.adapter or adapter_for(spec.model_type)  # adapter_for names the closest families
    dtype_bytes(serving_dtype)
    if buffer_bytes < 1:
        raise EcwidthError(f"a transfer buffer holds at least one byte, got {buffer_bytes}")
    if items is None:
        chosen = [item for item in TYPICAL_ITEMS if item.size.modality in widths]
    else:
        chosen = list(items)
        foreign = sorted({item.size.modality for item in chosen} - set(widths))
        if foreign:
            raise EcwidthError(
                f"{name or spec.name} has no {' or '.join(foreign)} width to price; it has {', '.join(widths)}"
            )
    release = releases.release(engine)
    hidden = adapter.lm_hidden_size(spec.config)
    sized = []
    for modality, width in widths.items():
        ours = adapter.modality_for_key(modality, release)  # the family's token rules know its own names
        price = partial(_price, width=width, hidden=hidden, dtype=serving_dtype, buffer_bytes=buffer_bytes)
        costs = tuple(
            price(item.label, _counted(lambda: adapter.embed_tokens(spec.config, replace(item.size, modality=ours))))  # noqa: B023 (called at once)
            for item in chosen
            if item.size.modality == modality
        )
        largest = price(f"largest {modality}", _counted(lambda: adapter.profile_tokens(spec.config, ours)))  # noqa: B023
        note = NO_TOKEN_RULE if largest.tokens is None else _larger_than_profile(costs, largest)
        sized.append(ModalitySizing(modality, width, hidden, serving_dtype, costs, largest, note))
    return TransferSizing(
        model=name or spec.name, model_type=spec.model_type, lm_hidden_size=hidden, serving_dtype=serving_dtype,
        buffer_bytes=buffer_bytes, modalities=tuple(sized), options=dict(options or {}), engine=release,
    )  # fmt: skip
