"""What an encoder's weights and one item's encode will hold in memory, estimated before either exists, and the
refusal of what cannot fit.

Before anything is built, the encoder's weights are estimated from its config's
fields alone (``check_config_fits``): layers × (2·width² + 2·width·inner) per
encoder sub-config, a lower bound of any transformer, conformer or state-space
layer of that width (attention's query and output, or a projection in and out;
an MLP in and out). A config that asks for terabytes, or for more layers than
any real tower has, is refused in microseconds, where building it on the meta
device would take minutes; the exact size is checked again once the model is
laid out (``ecwidth.measuring.build``).

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

import re
from collections.abc import Iterator, Mapping
from typing import Any

import torch
from torch import nn
from torch.utils._pytree import tree_leaves

from ecwidth.errors import ConfigError, ResourceError
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


# -- the encoder's weights, from its config's fields ------------------------------------------

#: Layers one stack may have: published vision and audio towers have a few dozen, language models under 200.
MAX_LAYERS = 4096
#: Fields that count a stack's layers (a list, as Swin's ``depths``, is summed).
_LAYER_FIELDS = ("num_hidden_layers", "depth", "depths", "num_layers", "encoder_layers", "n_layers",
                 "num_encoder_layers")  # fmt: skip
#: Fields that give a stack's width; where several are set, the smallest (Qwen2-VL's vision ``hidden_size`` is
#: its merger's output, ``embed_dim`` the layers').
_WIDTH_FIELDS = ("hidden_size", "embed_dim", "d_model", "width", "hidden_dim", "n_embd")
#: Fields that give the MLP's inner width; else ``mlp_ratio`` × the width, else no MLP is counted.
_INNER_FIELDS = ("intermediate_size", "encoder_ffn_dim", "ffn_dim", "mlp_dim", "ffn_hidden_size")
#: The widest MLP inner size, as a multiple of the stack's width, the bound counts.
MAX_INNER_RATIO = 4
#: Sub-configs that hold an encoder; those of a language model, a talker or a vocoder are not counted.
_ENCODER_KEY = re.compile(r"vision|visual|audio|speech|image|video|encoder|qformer|perceiver|tower|vit|sound", re.I)
_NOT_ENCODER_KEY = re.compile(r"text|language|llm|talker|decoder|wav", re.I)
#: Sub-configs that describe no stack: a quantization config names the checkpoint's layers one by one
#: (MiniMax-M3's names some 22,000), and walking it took longer than the rest of the check.
_NOT_ARCHITECTURE = frozenset({"quantization_config"})


def _positive_ints(value: Any) -> list[int]:
    values = value if isinstance(value, (list, tuple)) else [value]
    return [v for v in values if isinstance(v, int) and not isinstance(v, bool) and v > 0]


def _layers(fields: Mapping[str, Any]) -> tuple[str, int] | None:
    """The deepest layer-count field of one (sub-)config, and its count: ``("depth", 32)``."""
    counts = [(name, sum(_positive_ints(fields[name]))) for name in _LAYER_FIELDS if fields.get(name) is not None]
    return max(counts, key=lambda count: count[1], default=None)


def _sub_configs(fields: Mapping[str, Any], path: str = "") -> Iterator[tuple[str, Mapping[str, Any]]]:
    """``(dotted path, fields)`` of a config and every config nested in it (``""``: the config itself)."""
    yield path, fields
    for key, value in fields.items():
        sub = _fields(value)
        if sub is not None and key not in _NOT_ARCHITECTURE:
            yield from _sub_configs(sub, f"{path}.{key}" if path else str(key))


def _fields(config: Any) -> Mapping[str, Any] | None:
    """A config's fields, read in place where it keeps them (``to_dict`` copies them all); None for a value that
    is no config."""
    if isinstance(config, Mapping):
        return config
    if not callable(getattr(config, "to_dict", None)):
        return None
    try:
        return vars(config)
    except TypeError:  # slots: ecwidth's own read-only EngineConfig
        return config.to_dict()


def encoder_parameters_from_config(config: Any) -> dict[str, tuple[int, int, int]]:
    """A lower bound of the encoder's parameters from its config's fields alone, before anything is built.

    ``{sub-config path: (parameters, layers, width)}`` for each sub-config that
    holds an encoder (``vision_config``, ``audio_config``, a Q-Former's ...);
    a flat config, whose towers sit beside the language model, gives ``{}``.
    """
    found = {}
    for path, fields in _sub_configs(_fields(config)):
        parts = path.split(".")
        if not path or not _ENCODER_KEY.search(parts[-1]) or any(_NOT_ENCODER_KEY.search(part) for part in parts):
            continue
        layers = _layers(fields)
        widths = [w for name in _WIDTH_FIELDS for w in _positive_ints(fields.get(name))]
        if layers is None or not widths:
            continue
        width = min(widths)
        inners = [i for name in _INNER_FIELDS for i in _positive_ints(fields.get(name))]
        ratio = fields.get("mlp_ratio")
        if inners:
            # At most 4x the width: a sub-config may carry an inner size its tower does not use (GLM-4.1V's
            # vision MLP is out_hidden_size wide, its intermediate_size the language model's), and a bound must
            # never count more than is built.
            inner = min(*inners, MAX_INNER_RATIO * width)
        elif isinstance(ratio, (int, float)) and not isinstance(ratio, bool) and 0 < ratio <= 2**10:
            inner = int(width * ratio)
        else:
            inner = 0
        found[path] = (layers[1] * (2 * width * width + 2 * width * inner), layers[1], width)
    return found


def _bytes_text(size: int) -> str:
    return format_bytes(size) if size < 2**100 else f"about 10^{len(str(size)) - 1} bytes"


def _count_text(count: int) -> str:
    return f"{count:.3g}" if count < 10**100 else f"about 10^{len(str(count)) - 1}"


def check_config_fits(
    config: Any, *, device: torch.device, dtype: torch.dtype, max_memory: int | None, subject: str
) -> None:
    """Refuse, from its fields alone and before anything is built, a config whose encoder no machine could hold.

    Two refusals, each naming the estimate and the limit: encoder weights whose
    lower bound (``encoder_parameters_from_config``) in ``dtype`` exceeds
    ``max_memory`` bytes (default: ``memory_limit(device)``, as ``build_encoder``
    checks the exact size once the model is laid out); then a stack with more
    than ``MAX_LAYERS`` layers anywhere in the config, however narrow (laying
    them out alone would take minutes).

    Raises:
        ResourceError: The weights' lower bound is past the limit; names the override.
        ConfigError: A layer count past ``MAX_LAYERS``.
    """
    fields = _fields(config)
    stacks = encoder_parameters_from_config(fields)
    parameters = sum(count for count, _, _ in stacks.values())
    needed = parameters * dtype.itemsize
    if stacks:
        limit, what = (max_memory, "set by --max-memory") if max_memory is not None else memory_limit(device)
    if stacks and needed > limit:
        path, (_, layers, width) = max(stacks.items(), key=lambda stack: stack[1][0])
        raise ResourceError(
            f"{subject}: from its config, the encoder's weights would take at least {_bytes_text(needed)} in "
            f"{str(dtype).removeprefix('torch.')} ({_count_text(parameters)} parameters; {path}: {layers} layers "
            f"{width} wide), past the {_bytes_text(limit)} {what}; refused before building. Check the config's "
            "sizes against the published config.json, or pass --max-memory SIZE (max_memory=) to build it anyway"
        )
    for path, sub in _sub_configs(fields):
        layers = _layers(sub)
        if layers is not None and layers[1] > MAX_LAYERS:
            where = f"{path}.{layers[0]}" if path else layers[0]
            raise ConfigError(
                f"{subject}: {where} asks for {layers[1]} layers, past any real model (at most {MAX_LAYERS}: "
                "published towers have a few dozen, language models under 200); building them would take "
                "minutes. Check it against the published config.json"
            )
