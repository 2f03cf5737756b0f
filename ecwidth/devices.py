"""Resolve ``device="auto"`` and dtype names the same way everywhere."""

import torch

DTYPES: dict[str, torch.dtype] = {
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "float32": torch.float32,
}


def resolve_device(device: str | torch.device = "auto") -> torch.device:
    """``auto`` is the GPU when there is one, the CPU otherwise.

    Raises:
        ValueError: The name is not a device, or CUDA was asked for and is absent.
    """
    if isinstance(device, torch.device):
        return device
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        resolved = torch.device(device)
    except RuntimeError as error:
        raise ValueError(f"unknown device {device!r}; use auto, cpu or cuda") from error
    if resolved.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {device!r} was asked for but no CUDA GPU is visible; use --device cpu or auto")
    return resolved


def resolve_dtype(dtype: str | torch.dtype, device: torch.device) -> torch.dtype:
    """``auto`` is bfloat16 on a GPU and float32 on a CPU, where bf16 is several times slower.

    Raises:
        ValueError: The name is not one of ``auto``, bfloat16, float16, float32.
    """
    if isinstance(dtype, torch.dtype):
        return dtype
    if dtype == "auto":
        return torch.bfloat16 if device.type == "cuda" else torch.float32
    if dtype not in DTYPES:
        raise ValueError(f"unknown dtype {dtype!r}; use auto, {', '.join(DTYPES)}")
    return DTYPES[dtype]


def dtype_name(dtype: torch.dtype) -> str:
    """``torch.bfloat16`` -> ``"bfloat16"``."""
    return str(dtype).removeprefix("torch.")
