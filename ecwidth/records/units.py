"""Bytes as people write and read them, and the element sizes of the dtypes a producer ships in.

Kept apart from ``ecwidth.serving.sizing`` so that the command line can parse and show
sizes without importing the token rules, and ``ecwidth.measuring.build`` can word its
memory refusals without the sizing machinery.
"""

from __future__ import annotations

import re
from typing import Any

from ecwidth.errors import EcwidthError

#: Element sizes of the dtypes a producer ships in, plus the 8-bit float some stacks use.
SERVING_DTYPES: dict[str, int] = {"float32": 4, "bfloat16": 2, "float16": 2, "float8_e4m3fn": 1}
#: vLLM's default ``ec_buffer_size`` (bytes): the pool Mooncake's connector registers.
DEFAULT_BUFFER_BYTES = 10**9
_BINARY = (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10))
_DECIMAL = (("TB", 10**12), ("GB", 10**9), ("MB", 10**6), ("kB", 10**3))
_BYTE_UNITS = {"": 1, "b": 1, **{n.lower(): f for n, f in _BINARY}, **{n.lower(): f for n, f in _DECIMAL}}
_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]*)?(?:e[0-9]+)?)\s*([a-z]*)\s*", re.IGNORECASE)


def dtype_bytes(dtype: Any) -> int:
    """Bytes per element of a serving dtype: ``"bfloat16"``, ``"torch.bfloat16"`` or ``torch.bfloat16`` -> 2.

    Raises:
        ValueError: Unknown dtype name; lists the known ones.
    """
    name = str(dtype).removeprefix("torch.")
    if name not in SERVING_DTYPES:
        raise EcwidthError(f"unknown serving dtype {dtype!r}; use one of {', '.join(SERVING_DTYPES)}")
    return SERVING_DTYPES[name]


def parse_bytes(text: str) -> int:
    """A buffer size as written on a command line: ``1e9``, ``1GB`` (10⁹ bytes), ``1GiB`` (2³⁰ bytes), ``512MiB``.

    Raises:
        ValueError: Not a positive size with a known unit; says how to write one.
    """
    match = _SIZE.fullmatch(text)
    unit = match.group(2).lower() if match else None
    try:
        size = int(float(match.group(1)) * _BYTE_UNITS[unit]) if unit in _BYTE_UNITS else 0
    except OverflowError:  # 1e400
        size = 0
    if size < 1:
        raise EcwidthError(
            f"invalid buffer size {text!r}: write bytes (1000000000, 1e9) or a number with a unit, "
            "decimal (kB, MB, GB, TB: powers of 1000) or binary (KiB, MiB, GiB, TiB: powers of 1024)"
        )
    return size


#: The most bytes any limit may name (16 EiB): past it, a number is a typo, not a machine.
MAX_BYTES = 2**64


def check_byte_limit(limit: object) -> int | None:
    """``max_memory`` as given: ``None`` (the device's own limit) or a positive number of bytes.

    Raises:
        ValueError: Anything else, with how to write one.
    """
    if limit is None or (isinstance(limit, int) and not isinstance(limit, bool) and 0 < limit <= MAX_BYTES):
        return limit
    shown = repr(limit) if len(repr(limit)) <= 40 else repr(limit)[:30] + "..."
    raise EcwidthError(
        f"max_memory must be a positive int of bytes up to 2**64 (e.g. 200 * 2**30), or None; got {shown}"
    )


def format_bytes(size: int) -> str:
    """A byte count with both prefixes spelled out: ``"1.00 GiB (1.07 GB)"``; under 1 KiB, ``"512 bytes"``."""
    if size < 1024:
        return f"{size} bytes"
    binary = next((name, factor) for name, factor in _BINARY if size >= factor)
    decimal = next((name, factor) for name, factor in _DECIMAL if size >= factor)
    return f"{size / binary[1]:.2f} {binary[0]} ({size / decimal[1]:.2f} {decimal[0]})"
