"""Peak memory of a block of work: process RSS on a CPU, allocated bytes on a GPU; and the ``/proc`` reader.

Linux lets a process reset its own RSS high-water mark (``/proc/self/clear_refs``),
so each model of a survey gets its own peak rather than the process's all-time one.
Free heap memory is first handed back to the OS (glibc ``malloc_trim``): pages a
previous block freed but glibc kept would otherwise be reused by this block
without raising RSS, and its peak would read low.
"""

from __future__ import annotations

import ctypes
import os
import resource
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch

_CLEAR_REFS = Path("/proc/self/clear_refs")


def read_proc(path: str | os.PathLike[str], keys: Iterable[str]) -> dict[str, str]:
    """The values of ``keys`` in a ``/proc`` file of ``key: value`` lines (status, meminfo, cpuinfo).

    Values are stripped text (``"1234 kB"``); the first line of each key wins.
    A key the file lacks, or every key where the file cannot be read (no /proc,
    a process that has exited), is left out.
    """
    wanted = set(keys)
    try:
        text = Path(path).read_text()
    except OSError:
        return {}
    found: dict[str, str] = {}
    for line in text.splitlines():
        key, colon, value = line.partition(":")
        key = key.strip()
        if colon and key in wanted and key not in found:
            found[key] = value.strip()
    return found


def status_bytes(*keys: str, pid: int | str = "self") -> dict[str, int]:
    """Memory fields of ``/proc/<pid>/status`` (``VmRSS``, ``VmHWM`` ...) in bytes; those it lacks are left out."""
    found = {}
    for key, value in read_proc(f"/proc/{pid}/status", keys).items():
        number = value.split()[0] if value else ""
        if number.isdigit():
            found[key] = int(number) * 1024
    return found


def _rss_high_water_mark() -> int:
    """VmHWM in bytes, or the process's ru_maxrss where /proc is not there."""
    peak = status_bytes("VmHWM").get("VmHWM")
    return peak if peak is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _rss() -> int:
    """VmRSS in bytes, or 0 where /proc is not there."""
    return status_bytes("VmRSS").get("VmRSS", 0)


def _trim_heap() -> None:
    """Return free heap pages to the OS where the C library is glibc; a no-op elsewhere."""
    try:
        ctypes.CDLL(None).malloc_trim(0)  # the process's own symbols: libc is among them
    except (OSError, AttributeError):
        pass


def _reset_rss_high_water_mark() -> bool:
    try:
        _CLEAR_REFS.write_text("5")
        return True
    except OSError:
        return False


@dataclass
class PeakMemory:
    """Filled in when the ``peak_memory`` block exits."""

    rss_bytes: int = 0
    cuda_bytes: int | None = None
    #: False where the high-water mark could not be reset: ``rss_bytes`` is then the process's all-time peak.
    rss_is_per_block: bool = True
    #: RSS and CUDA allocation when the block started: ``peak - start`` is what the block added.
    start_rss_bytes: int = 0
    start_cuda_bytes: int | None = None


@contextmanager
def peak_memory(device: torch.device | str = "cpu") -> Iterator[PeakMemory]:
    """Record the peak RSS (and peak CUDA allocation on a GPU) of the enclosed block."""
    import torch

    _trim_heap()
    peak = PeakMemory(rss_is_per_block=_reset_rss_high_water_mark(), start_rss_bytes=_rss())
    on_cuda = torch.device(device).type == "cuda"
    if on_cuda:
        torch.cuda.reset_peak_memory_stats()
        peak.start_cuda_bytes = torch.cuda.memory_allocated()
    try:
        yield peak
    finally:
        peak.rss_bytes = _rss_high_water_mark()
        if on_cuda:
            peak.cuda_bytes = torch.cuda.max_memory_allocated()
