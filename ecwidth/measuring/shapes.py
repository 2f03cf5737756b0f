"""Encode without the arithmetic that ecwidth's own zero weights make known in advance.

``ecwidth.measuring.build.materialize`` gives every encoder parameter zero storage, so
a product with one of them (a linear layer, a matmul, a convolution, an
einsum) is zero, plus the bias where one is added. Two dispatch modes skip
that arithmetic while every other op of the family's code runs as written:

- ``ZeroWeightMode`` returns those known results for real: zeros of the
  shape and dtype the op gives (computed on the meta device), plus the bias.
  The packed item is equal, bit for bit, to the real encode's.
  ``known_products`` enters it only inside the modules that hold a zero
  weight, so the rest of the code pays no Python round trip per op.
- ``MetaActivationMode`` runs every op that touches a weight or an
  activation on the meta device, while integer metadata (``grid_thw``,
  masks, sequence lengths) stays real on the host, so that data-dependent
  shapes still follow the code. A profile-sized item then costs its
  bookkeeping, not its FLOPs. An op that needs an activation's values (a
  mask read from pixels, ``.item()`` of a feature) cannot run this way and
  raises ``MetaExecutionError``.

Zero weights are recognised by identity, never by their values: a tensor is
one when its storage is one that ``materialize`` made (``mark_zero``), which
covers views of a weight such as its transpose.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch import nn
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves, tree_map

aten = torch.ops.aten

#: The attribute ``mark_zero`` sets on a parameter whose storage is a zero-filled block.
_ZERO_MARK = "_ecwidth_zero"


class MetaExecutionError(RuntimeError):
    """The family's code needs the values of an activation, which meta execution does not have."""


def mark_zero(param: nn.Parameter) -> None:
    """Record that ``param`` lives in a ``zero_storage`` block: zeros that nothing writes."""
    setattr(param, _ZERO_MARK, True)


def zero_storage_ptrs(modules: Iterable[nn.Module]) -> frozenset[int]:
    """Addresses of the zero storages the marked parameters of ``modules`` live in.

    Parameters built elsewhere are not zero by construction and count for nothing here.
    """
    ptrs = {
        param.untyped_storage().data_ptr()
        for module in modules
        for param in module.parameters()
        if getattr(param, _ZERO_MARK, False)
    }
    ptrs.discard(0)
    return frozenset(ptrs)


@contextmanager
def known_products(
    model: nn.Module, enabled: bool = True, zeros: frozenset[int] | None = None
) -> Iterator[ZeroWeightMode | None]:
    """Skip the products with ``model``'s zero weights for the block (``ZeroWeightMode``); ``None`` when off.

    The mode is entered only while a module that holds a zero weight itself
    runs (a linear layer, a convolution, a projector's bare weight): every
    other op of the family's code (attention over activations, norms,
    reshapes) goes to its kernel without a Python round trip, which was about
    a third of a minimal encode. A product with a zero weight made outside
    the module that holds it (a parent reading a child's weight) runs for
    real: slower, never wrong, since the weights are real zeros.
    ``zeros`` is ``zero_storage_ptrs([model])`` where the caller has it: a walk over every parameter.
    """
    if not enabled:
        yield None
        return
    mode = ZeroWeightMode(zero_storage_ptrs([model]) if zeros is None else zeros)
    holders = {
        id(module)
        for module in model.modules()
        if any(_is_zero(param, mode.zeros) for param in module._parameters.values())
    }
    depth = 0  # holders nest (a projector module inside another): the mode is entered by the outermost

    def enter(module: nn.Module, args: Any) -> None:
        nonlocal depth
        if id(module) in holders:
            if depth == 0:
                mode.__enter__()
            depth += 1

    def leave(module: nn.Module, args: Any, output: Any) -> None:  # also called when the forward raises
        nonlocal depth
        if id(module) in holders:
            depth -= 1
            if depth == 0:
                mode.__exit__(None, None, None)

    with _module_hooks(enter, leave):
        yield mode


@contextmanager
def _module_hooks(before: Callable[..., None], after: Callable[..., None]) -> Iterator[None]:
    """Call ``before`` and ``after`` around every module call in the block (``after`` even when one raises)."""
    from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook

    with register_module_forward_pre_hook(before), register_module_forward_hook(after, always_call=True):
        yield


def _is_zero(value: Any, zeros: frozenset[int]) -> bool:
    return (
        isinstance(value, torch.Tensor)
        and value.device.type != "meta"
        and (value.untyped_storage().data_ptr() in zeros)
    )


def _signature(value: Any) -> Any:
    """What an op's result shape can depend on: a tensor's layout and dtype, any other argument itself."""
    if isinstance(value, torch.Tensor):
        return (tuple(value.shape), value.stride(), value.dtype, value.device.type)
    return value


def _leaves(values: Iterable[Any]) -> Iterator[Any]:
    """The values with their lists and tuples flattened, each led by its length as a 1-tuple (no leaf is a
    tuple), so that two nestings never give one key. An op's arguments are no deeper; ``tree_leaves``, which
    knows every container, cost some 5 µs of a skipped product's 45."""
    for value in values:
        if isinstance(value, (list, tuple)):
            yield (len(value),)
            yield from _leaves(value)
        else:
            yield value


def _to_meta(value: Any) -> Any:
    return value.to("meta") if isinstance(value, torch.Tensor) and value.device.type != "meta" else value


def _all_finite(values: Iterable[Any]) -> bool:
    """Whether every floating tensor among ``values`` is finite: 0 * inf is NaN, so only then is the product 0.

    One reduction says it: a NaN or an infinity anywhere makes the sum NaN or
    infinite. A sum that overflows although every value is finite says "not
    finite" too, and the real product then runs: slower, never wrong.
    """
    return all(
        bool(torch.isfinite(v.sum()))
        for v in values
        if isinstance(v, torch.Tensor) and v.is_floating_point() and v.device.type != "meta"
    )


#: Products of all their tensor operands: zero where one operand is zero (and the others are finite).
_PRODUCTS = {aten.mm.default, aten.bmm.default, aten.matmul.default, aten.dot.default, aten.mv.default}
#: ``op(bias, a, b, beta=1, alpha=1)``: ``beta * bias + alpha * (a @ b)``.
_BIASED_PRODUCTS = {aten.addmm.default, aten.baddbmm.default, aten.addmv.default}
#: ``op(input, weight, bias, ...)``: a linear layer or a convolution, the bias along the output channels.
#: In inference mode the dispatcher hands over the composite ops (``linear``, ``conv2d``) undecomposed.
_LAYERS = {
    aten.linear.default,
    aten.convolution.default,
    *(getattr(aten, f"conv{n}d").default for n in (1, 2, 3)),
    *(getattr(aten, f"conv{n}d").padding for n in (1, 2, 3)),
    aten.conv_transpose1d.default,
    aten.conv_transpose2d.input,
    aten.conv_transpose3d.input,
}


#: The result layouts ``ZeroWeightMode`` has computed, by op and operand layouts (meta tensors: no storage).
_PRODUCT_LAYOUTS: dict[tuple, torch.Tensor] = {}
#: Past this many, the layouts are forgotten and computed again: a bound, never reached by a survey.
_MAX_LAYOUTS = 65536


class ZeroWeightMode(TorchDispatchMode):
    """Return the known result of a product with a zero weight; run every other op as written.

    The result is what the real op gives: its shape and dtype are the op's
    own on the meta device, its values zero plus the bias, broadcast as the
    op broadcasts it. Where another operand holds a non-finite value, the
    real op runs (its NaN is what the producer would ship).
    """

    def __init__(self, zeros: frozenset[int]) -> None:
        super().__init__()
        self.zeros = zeros
        #: products answered without their arithmetic, for benchmarks and tests.
        self.skipped = 0

    def __torch_dispatch__(self, func: Callable, types: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
        kwargs = kwargs or {}
        known = self._known(func, args, kwargs) if self.zeros else None
        return func(*args, **kwargs) if known is None else known

    def _meta_result(self, func: Callable, args: tuple, kwargs: dict) -> torch.Tensor:
        """The op's result on the meta device, once per signature in the process: a tower repeats each layer's
        shapes, and catalog models share towers. Meta kernels are Python (``addmm``'s is a decomposition)."""
        key = (func, tuple(kwargs), *map(_signature, _leaves((*args, *kwargs.values()))))
        if key not in _PRODUCT_LAYOUTS:
            if len(_PRODUCT_LAYOUTS) >= _MAX_LAYOUTS:
                _PRODUCT_LAYOUTS.clear()
            _PRODUCT_LAYOUTS[key] = func(*tree_map(_to_meta, args), **tree_map(_to_meta, kwargs))
        return _PRODUCT_LAYOUTS[key]

    def _known(self, func: Callable, args: tuple, kwargs: dict) -> torch.Tensor | None:
        """The op's result without its arithmetic, or ``None`` where it must run."""
        if func in _PRODUCTS:
            operands, bias = args, None
        elif func is aten.einsum.default:
            operands, bias = args[1], None
        elif func in _BIASED_PRODUCTS:
            if kwargs.get("beta", 1) != 1 or kwargs.get("alpha", 1) != 1:
                return None
            bias, operands = args[0], args[1:3]
        elif func in _LAYERS:
            operands, bias = args[:2], args[2] if len(args) > 2 else kwargs.get("bias")
            if not _is_zero(operands[1], self.zeros):  # a zero input under a live weight is the model's business
                return None
        else:
            return None
        live = [o for o in operands if not _is_zero(o, self.zeros)]
        if len(live) == len(operands) or not _all_finite(live):
            return None
        shape = self._meta_result(func, args, kwargs)
        self.skipped += 1
        result = torch.empty_strided(shape.shape, shape.stride(), dtype=shape.dtype, device=operands[0].device).zero_()
        if bias is not None:
            if func in _LAYERS and func is not aten.linear.default:  # a convolution: the bias runs along channels
                batched = args[0].ndim == args[1].ndim
                bias = bias.reshape(-1, *([1] * (result.ndim - 1 - batched)))
            result.add_(bias)
        return result


class MetaActivationMode(TorchDispatchMode):
    """Run every op that touches a zero weight or an activation on the meta device; keep the rest real.

    - A factory (no tensor inputs) makes floating tensors on the meta device
      (pixels, features, buffers of activations) and integer and boolean ones
      on the host, even when asked for the meta device (``torch.arange(n,
      device=x.device)``): those are indices and lengths.
    - An op with a meta tensor or a zero weight among its inputs runs on the
      meta device, and so does everything computed from its result.
    - Every other op runs for real: the integer and rotary bookkeeping.

    Raises:
        MetaExecutionError: From an op that reads an activation's values, writes
            an activation into a real tensor, or has no meta kernel.
    """

    def __init__(self, zeros: frozenset[int], host: torch.device) -> None:
        super().__init__()
        self.zeros = zeros
        self.host = host
        self._layouts: dict[tuple, torch.Tensor] = {}

    def __torch_dispatch__(self, func: Callable, types: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
        kwargs = kwargs or {}
        tensors = [t for t in tree_leaves((args, kwargs)) if isinstance(t, torch.Tensor)]
        if not tensors and _makes_tensors(func):
            return self._factory(func, args, kwargs)
        if not any(t.device.type == "meta" or _is_zero(t, self.zeros) for t in tensors) or _views_a_real_tensor(
            func, args
        ):
            return func(*args, **kwargs)  # a view of a weight costs nothing, and stays one
        if func is aten._local_scalar_dense.default:
            raise MetaExecutionError("the code reads a value of an activation (.item(), .tolist(), a branch on it)")
        if func._schema.is_mutable and any(t.device.type != "meta" for t in args[:1] if isinstance(t, torch.Tensor)):
            raise MetaExecutionError(f"{func.__name__} writes an activation into a real tensor")
        if func is aten.index.Tensor:
            args = (args[0], [selected for index in args[1] for selected in _host_indices(index)])
        args, kwargs = tree_map(_meta_device, (args, kwargs))
        if not _returns_new_tensor(func):
            return self._on_meta(func, args, kwargs)
        # A tower repeats its layers' shapes (and a windowed one, thousands of windows a layer),
        # and meta kernels are Python: compute a result's layout once per signature.
        key = (func, tuple(kwargs), *map(_signature, _leaves((*args, *kwargs.values()))))
        if key not in self._layouts:
            self._layouts[key] = self._on_meta(func, args, kwargs)
        made = self._layouts[key]
        return torch.empty_strided(made.shape, made.stride(), dtype=made.dtype, device="meta")

    @staticmethod
    def _on_meta(func: Callable, args: tuple, kwargs: dict) -> Any:
        try:
            return func(*tree_map(_to_meta, args), **tree_map(_to_meta, kwargs))
        except (NotImplementedError, RuntimeError) as error:
            raise MetaExecutionError(f"{func.__name__} cannot run on the meta device: {error}") from error

    def _factory(self, func: Callable, args: tuple, kwargs: dict) -> torch.Tensor:
        """A new tensor: on the meta device where it is floating, else real on the host."""
        made = func(*args, **{**kwargs, "device": torch.device("meta")})
        if made.is_floating_point() or made.is_complex():
            return made
        device = kwargs.get("device")
        if device is None or torch.device(device).type == "meta":
            device = self.host
        return func(*args, **{**kwargs, "device": device})


def _meta_device(value: Any) -> Any:
    """A device argument as the meta device (``x.to(weight.device)`` keeps an activation on meta)."""
    return torch.device("meta") if isinstance(value, torch.device) else value


def _views_a_real_tensor(func: Callable, args: tuple) -> bool:
    """Whether ``func`` returns a view of its first argument, a real tensor (a weight's transpose, say)."""
    returns = func._schema.returns
    return (
        bool(args)
        and isinstance(args[0], torch.Tensor)
        and args[0].device.type != "meta"
        and len(returns) >= 1
        and returns[0].alias_info is not None
        and not func._schema.is_mutable
    )


def _returns_new_tensor(func: Callable) -> bool:
    """Whether ``func`` returns one tensor of its own: no view, no in-place result, no tuple."""
    returns = func._schema.returns
    return (
        len(returns) == 1
        and returns[0].alias_info is None
        and str(returns[0].type) == "Tensor"
        and not func._schema.is_mutable
    )


def _makes_tensors(func: Callable) -> bool:
    """Whether ``func`` is a factory: an op that takes a ``device`` to make its result on."""
    return any(argument.name == "device" for argument in func._schema.arguments)


def _host_indices(index: Any) -> tuple[Any, ...]:
    """A real boolean mask as the integer indices it selects (one per dim it covers), so that
    indexing by it needs no values on the meta device; any other index as it is."""
    if isinstance(index, torch.Tensor) and index.dtype == torch.bool and index.device.type != "meta":
        return index.nonzero().unbind(1)
    return (index,)


#: The attention implementation meta execution gives transformers' modules (``varlen_attention``).
META_ATTENTION = "ecwidth_meta_varlen_flash"


def _meta_attention(module: nn.Module, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                    attention_mask: Any = None, **kwargs: Any) -> tuple[torch.Tensor, None]:  # fmt: skip
    """``[batch, heads, seq, dim]`` in, ``[batch, seq, heads, value dim]`` out, as every transformers attention
    returns it; on the meta device the layout is all there is to compute."""
    batch, heads, seq, _ = query.shape
    return query.new_empty(batch, seq, heads, value.shape[-1]), None


@contextmanager
def varlen_attention(model: nn.Module) -> Iterator[None]:
    """Give every transformers config in ``model`` a flash-style attention for the block, then restore each.

    Windowed and per-image towers (Qwen2.5-VL, EXAONE 4.5, Gemma 4) take
    their flash branch then: one varlen call per layer over ``cu_seqlens``,
    the way vLLM's own towers attend, instead of one call per window, which on
    the meta device is Python dispatch alone (30 s for a Qwen2.5-VL profile
    video, 0.4 s this way), and Gemma 4's padding branch, which reads an
    activation, is skipped. The result is the same layout either way.
    """
    from transformers import AttentionInterface, PretrainedConfig

    AttentionInterface.register(META_ATTENTION, _meta_attention)
    configs = {
        id(m.config): m.config for m in model.modules() if isinstance(getattr(m, "config", None), PretrainedConfig)
    }
    saved = {key: config._attn_implementation_internal for key, config in configs.items()}
    try:
        for config in configs.values():
            config._attn_implementation_internal = META_ATTENTION  # this config alone, not its sub-configs
        yield
    finally:
        for key, config in configs.items():
            config._attn_implementation_internal = saved[key]


@contextmanager
def meta_activations(model: nn.Module, zeros: frozenset[int] | None = None) -> Iterator[MetaActivationMode]:
    """Run ``model``'s zero-weight products and everything after them on the meta device (``MetaActivationMode``),
    its attention flash-style (``varlen_attention``). ``zeros`` as in ``known_products``.

    Raises:
        ValueError: The model has no zero weights ``materialize`` made, so nothing can tell its activations apart.
    """
    zeros = zero_storage_ptrs([model]) if zeros is None else zeros
    if not zeros:
        raise ValueError(
            f"{type(model).__name__} has no zero weights from ecwidth.measuring.build; build it with build_encoder"
        )
    host = next(p.device for p in model.parameters() if getattr(p, _ZERO_MARK, False))
    with varlen_attention(model), MetaActivationMode(zeros, host) as mode:
        yield mode
