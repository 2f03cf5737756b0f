"""Resolve ``device="auto"`` and dtype names the same way everywhere."""

import torch

from ecwidth.errors import EcwidthError

DTYPES: dict[str, torch.dtype] = {
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "float32": torch.float32,
}


def resolve_device(device: str | torch.device = "auto") -> torch.device:
    """``auto`` is the GPU when there is one, the CPU otherwise.

    ecwidth measures on a CPU or a CUDA GPU; other backends (``mps``, ``xpu``,
    ``meta``) are refused up front rather than failing deep inside a tower.

    Raises:
        EcwidthError: (a ``ValueError``) The name is not a device ecwidth can use here, with the fix.
    """
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        resolved = device if isinstance(device, torch.device) else torch.device(device)
    except (RuntimeError, TypeError) as error:
        raise EcwidthError(f"unknown device {_shown(device)}; use auto, cpu, cuda or cuda:N") from error
    if resolved.type not in ("cpu", "cuda"):
        raise EcwidthError(f"ecwidth measures on cpu or cuda, not {resolved.type!r}; use --device auto, cpu or cuda")
    if resolved.type == "cuda":
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if count == 0:
            raise EcwidthError(
                f"device {str(device)!r} was asked for but no CUDA GPU is visible; use --device cpu or auto"
            )
        if resolved.index is not None and resolved.index >= count:
            raise EcwidthError(
                f"device {str(device)!r} does not exist: {count} CUDA GPU(s) are visible (cuda:0 to cuda:{count - 1})"
            )
    return resolved


def resolve_dtype(dtype: str | torch.dtype, device: torch.device) -> torch.dtype:
    """``auto`` is bfloat16 on a GPU and float32 on a CPU, where bf16 is several times slower.

    Raises:
        ValueError: Not one of ``auto``, bfloat16, float16, float32 (by name or as a torch dtype). A ``ValueError``,
            not an ``EcwidthError``: a survey refuses it outright rather than failing each model on it.
    """
    if isinstance(dtype, torch.dtype):
        if dtype not in DTYPES.values():
            raise ValueError(f"unsupported dtype {dtype}; use auto, {', '.join(DTYPES)}")
        return dtype
    if dtype == "auto":
        return torch.bfloat16 if device.type == "cuda" else torch.float32
    if dtype not in DTYPES:
        raise ValueError(f"unknown dtype {_shown(dtype)}; use auto, {', '.join(DTYPES)}")
    return DTYPES[dtype]


def dtype_name(dtype: torch.dtype) -> str:
    """``torch.bfloat16`` -> ``"bfloat16"``."""
    return str(dtype).removeprefix("torch.")


def _shown(value: object) -> str:
    """``repr(value)`` for a one-line message, shortened where it is long."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}... ({len(text)} characters)"
