"""Build a family's encoder at published size without paying for weights.

The width is a function of the architecture, not of the weights, so the
model is constructed with every parameter on the meta device (no storage, no
init), then only the encoder's parameters get real storage, all zeros.
Buffers (rotary frequencies, position ids) are computed for real during
construction, because the forward pass depends on them. The language model
is built without its decoder layers (``without_language_layers``), and what
is left of it stays on meta: it is never given storage and never run.
"""

from __future__ import annotations

import copy
import mmap
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch import nn

from ecwidth.errors import ResourceError
from ecwidth.families.adapter import FamilyAdapter, resolve
from ecwidth.measuring.memory import read_proc
from ecwidth.measuring.shapes import mark_zero
from ecwidth.records.units import format_bytes

_ALIGN = 64  # bytes; what torch's CPU allocator guarantees, enough for every dtype


@contextmanager
def parameters_on_meta() -> Iterator[None]:
    """Register every new parameter on the meta device; buffers stay real."""
    original = nn.Module.register_parameter

    def register_on_meta(module: nn.Module, name: str, param: nn.Parameter | None) -> None:
        if param is not None and param.device.type != "meta":
            param = nn.Parameter(param.to("meta"), requires_grad=param.requires_grad)
        original(module, name, param)

    nn.Module.register_parameter = register_on_meta
    try:
        yield
    finally:
        nn.Module.register_parameter = original


def zero_storage(nbytes: int, device: torch.device) -> torch.Tensor:
    """``nbytes`` of zeros (uint8) on ``device``, without touching memory on a CPU.

    On a CPU the bytes are a private anonymous mapping that is never written:
    reads map the kernel's shared zero page, so the weights cost no RSS and no
    time to fill. ``MADV_HUGEPAGE`` lets a read fault map the 2 MiB huge zero
    page instead of a 4 KiB one: 512 times fewer faults, which were most of
    the first encode after each build (Qwen3-VL-8B, one-token image and video
    on 2 idle cores: 0.45 s with ``torch.empty``, 0.17 s here). Where THP is
    off, the advice is ignored and the small zero page serves. ``torch.empty``
    also gave no defined values: once glibc reuses freed heap memory, "empty"
    weights hold stale bytes, pointers among them that read as denormals and
    NaN, so outputs were NaN and could change from one build to the next.
    """
    if device.type != "cpu":
        return torch.zeros(nbytes, dtype=torch.uint8, device=device)
    mapping = mmap.mmap(-1, max(nbytes, 1), flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        mapping.madvise(mmap.MADV_HUGEPAGE)
    return torch.frombuffer(mapping, dtype=torch.uint8)  # the tensor keeps the mapping alive


def materialize(module: nn.Module, device: torch.device, dtype: torch.dtype) -> None:
    """Give a module's parameters zero-filled storage on ``device`` and move its buffers there.

    Floating parameters take ``dtype``; buffers keep theirs (rotary tables stay
    fp32). All parameters are views into one ``zero_storage`` block, 64-byte
    aligned; a parameter shared by two submodules stays shared. Weights are
    zeros rather than random: the width depends on the architecture alone.
    Each view is one ``as_strided`` of the block seen as its dtype, and the
    module tree is walked once: a catalog survey gives some 23,000 parameters
    storage, where slicing and viewing twice each took half its build time
    beyond construction.
    """
    submodules = list(module.modules())
    slots: dict[int, tuple[int, torch.dtype, torch.Size]] = {}
    nbytes = 0
    for submodule in submodules:
        for param in submodule._parameters.values():
            if param is not None and id(param) not in slots:
                param_dtype = dtype if param.dtype.is_floating_point else param.dtype
                slots[id(param)] = (nbytes, param_dtype, param.shape)
                nbytes += -(-param.numel() * param_dtype.itemsize // _ALIGN) * _ALIGN
    block = zero_storage(nbytes, device)[:nbytes]  # every offset is a multiple of every itemsize
    as_dtype: dict[torch.dtype, torch.Tensor] = {}
    made: dict[int, nn.Parameter] = {}
    for submodule in submodules:
        for name, param in list(submodule._parameters.items()):
            if param is None:
                continue
            if id(param) not in made:
                offset, param_dtype, shape = slots[id(param)]
                if param_dtype not in as_dtype:
                    as_dtype[param_dtype] = block.view(param_dtype)
                view = as_dtype[param_dtype].as_strided(
                    shape, _contiguous_strides(shape), offset // param_dtype.itemsize
                )
                made[id(param)] = nn.Parameter(view, requires_grad=False)
                mark_zero(made[id(param)])
            submodule._parameters[name] = made[id(param)]
        for name, buffer in list(submodule._buffers.items()):
            if buffer is not None and buffer.device != device:
                submodule._buffers[name] = buffer.to(device)


def _contiguous_strides(shape: torch.Size) -> tuple[int, ...]:
    """The strides of a contiguous tensor of ``shape``, in elements."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def without_language_layers(config: Any) -> Any:
    """A copy of ``config`` whose language model has no decoder layers: the towers are all that is built.

    The towers and projectors read the text config's widths, never its depth,
    so a build lays out none of the layers it would leave on meta unused
    (about half of a build's time, and all of an MoE's expert tables). A flat
    config, where the towers' fields sit beside the language model's, and a
    family's own config object without transformers' ``get_text_config`` are
    returned as they are.
    """
    get_text_config = getattr(config, "get_text_config", None)
    if get_text_config is None or get_text_config() is config:
        return config
    quantization = getattr(config, "quantization_config", None)  # nothing writes it: shared, not copied
    trimmed = copy.deepcopy(config, {id(quantization): quantization})
    trimmed.get_text_config().num_hidden_layers = 0
    return trimmed


def encoder_bytes(model: nn.Module, paths: tuple[str, ...], dtype: torch.dtype) -> int:
    """Bytes the encoder's parameters take once given storage: floating ones in ``dtype``, shared ones once."""
    seen: dict[int, int] = {}
    for path in paths:
        module = resolve(model, path)
        for param in module.parameters() if module is not None else ():
            itemsize = dtype.itemsize if param.dtype.is_floating_point else param.dtype.itemsize
            seen[id(param)] = param.numel() * itemsize
    return sum(seen.values())


def memory_limit(device: torch.device, *, available: bool = False) -> tuple[int, str]:
    """How many bytes the encoder's weights may take on ``device`` (or, ``available``, an encode may still
    allocate), and what that limit is.

    On a GPU, its free memory. On a CPU the weights are the kernel's zero page
    and cost no RSS, but no published tower comes near the machine's RAM: a
    config that does is a typo, and its build would exhaust the address space.
    An item's activations do take RSS, so they are held to what the kernel
    reports available.
    """
    if device.type == "cuda":
        return torch.cuda.mem_get_info(device)[0], f"free on {device}"
    key, pages, what = (
        ("MemAvailable", "SC_AVPHYS_PAGES", "of RAM available on this machine")
        if available
        else ("MemTotal", "SC_PHYS_PAGES", "of RAM on this machine")
    )
    value = read_proc("/proc/meminfo", [key]).get(key, "").split()
    if value and value[0].isdigit():
        return int(value[0]) * 1024, what
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf(pages), what


def build_encoder(
    adapter: FamilyAdapter, config: Any, *, device: torch.device, dtype: torch.dtype, max_memory: int | None = None
) -> nn.Module:
    """Construct the adapter's model class from ``config``; only the encoder gets storage.

    Before any storage, the encoder's weights are sized from the model laid out
    on meta and refused where they exceed ``max_memory`` bytes (default:
    ``memory_limit(device)``).

    Raises:
        UnknownModelTypeError: The installed transformers predates the classes the family is built from.
        ResourceError: The weights would not fit; names the estimate, the limit and the override.
        ValueError: The built model lacks one of the adapter's encoder submodules.
    """
    from transformers.initialization import no_init_weights

    adapter.check_transformers(config.model_type)

    with parameters_on_meta(), no_init_weights():
        model = adapter.construct(config if adapter.needs_language_layers else without_language_layers(config), dtype)
    needed = encoder_bytes(model, adapter.encoder_paths(model), dtype)
    limit, what = (max_memory, "set by --max-memory") if max_memory is not None else memory_limit(device)
    if needed > limit:
        raise ResourceError(
            f"{config.model_type}: the encoder's weights would take {format_bytes(needed)} in "
            f"{str(dtype).removeprefix('torch.')}, past the {format_bytes(limit)} {what}; check the config's "
            "sizes against the published config.json, or pass --max-memory SIZE (max_memory=) to build it anyway"
        )
    for path in adapter.encoder_paths(model):
        module = resolve(model, path)
        if module is None:
            raise ValueError(f"{type(model).__name__} built from this config has no {path!r} submodule")
        materialize(module, device, dtype)
    model.ecwidth_adapter = adapter  # the adapter travels with the model it built
    return model.eval().requires_grad_(False)
