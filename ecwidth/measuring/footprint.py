"""What one item's encode will hold in memory, estimated before it runs, and the refusal of what cannot fit.

The weights are sized exactly before any storage (``ecwidth.measuring.build``). An
item's activations depend on the item, so they are estimated from the item
itself, made first on the meta device (``ecwidth.measuring.shapes``): a config whose
item would be a time bomb (a tile of a million pixels a side, a profile item
of millions of patches) is sized at no cost. The estimate is the item's own
floating tensors plus ``LIVE_ROWS`` rows as wide as the encoder's widest
layer for each of the item's rows: an order of magnitude, meant to refuse
what cannot fit, not to plan memory. Attention scores are not counted:
torch's CPU attention works in blocks, and the tower's width bounds what a
layer keeps alive.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.utils._pytree import tree_leaves

from ecwidth.errors import ResourceError
from ecwidth.families.adapter import FamilyAdapter, resolve
from ecwidth.measuring.build import memory_limit
from ecwidth.measuring.shapes import meta_activations
from ecwidth.records.units import format_bytes

#: Tensors as wide as the widest layer that a layer keeps alive per row: its input, the residual,
#: the MLP's hidden and activated copies, with room for a norm's and a projection's.
LIVE_ROWS = 6


def widest_layer(model: nn.Module, paths: tuple[str, ...]) -> int:
    """The most features any linear layer or convolution of the encoder reads or writes."""
    widest = 1
    for path in paths:
        module = resolve(model, path)
        for layer in module.modules() if module is not None else ():
            if isinstance(layer, nn.Linear):
                widest = max(widest, layer.in_features, layer.out_features)
            elif isinstance(layer, nn.modules.conv._ConvNd):
                widest = max(widest, layer.in_channels, layer.out_channels)
    return widest


def item_activation_bytes(
    adapter: FamilyAdapter,
    model: nn.Module,
    modality: str,
    dummy: str,
    max_tokens: int | None,
    zeros: frozenset[int] | None = None,
) -> int:
    """Bytes one real encode of this item is estimated to hold: the item, plus ``LIVE_ROWS`` widest rows per row.

    A row is one position of the item's largest floating tensor (all its
    dimensions but the last): a patch of ``pixel_values``, a frame of a mel
    spectrogram, a pixel row of an image. ``zeros`` as in ``ecwidth.measuring.shapes.known_products``.
    """
    with meta_activations(model, zeros):
        item = adapter.dummy_item(model, modality, dummy, max_tokens=max_tokens)
    floating = [t for t in tree_leaves(item) if isinstance(t, torch.Tensor) and t.is_floating_point()]
    if not floating:
        return 0
    largest = max(floating, key=torch.Tensor.numel)
    rows = largest.numel() // max(largest.shape[-1], 1) if largest.ndim else 1
    widest = widest_layer(model, adapter.encoder_paths(model))
    item_bytes = sum(t.numel() * t.element_size() for t in floating)
    return item_bytes + rows * widest * LIVE_ROWS * largest.element_size()


def check_item_fits(
    adapter: FamilyAdapter,
    model: nn.Module,
    modality: str,
    dummy: str,
    max_tokens: int | None,
    max_memory: int | None,
    zeros: frozenset[int] | None = None,
) -> None:
    """Refuse, before it is made, a dummy item whose real encode would not fit (``max_memory`` overrides the limit).

    Raises:
        ResourceError: Names the item, the estimate, the limit and the override.
    """
    needed = item_activation_bytes(adapter, model, modality, dummy, max_tokens, zeros)
    _, device = adapter.encoder_dtype_device(model)
    limit, what = (
        (max_memory, "set by --max-memory") if max_memory is not None else memory_limit(device, available=True)
    )
    if needed > limit:
        smaller = ", measure with --dummy minimal (the same width)" if dummy != "minimal" else ""
        raise ResourceError(
            f"{model.config.model_type}: encoding a {dummy} {modality} item would hold about {format_bytes(needed)} "
            f"of activations, past the {format_bytes(limit)} {what}; check the config's sizes against the "
            f"published config.json{smaller}, or pass --max-memory SIZE (max_memory=) to encode it anyway"
        )
