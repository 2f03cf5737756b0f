"""Packing the serving engine does and transformers does not: DeepStack levels on the last dim."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ecwidth.families.adapter import rows

if TYPE_CHECKING:
    import torch


def pack_deepstack(output: Any) -> torch.Tensor:
    """One item's vision output packed as vLLM ships it: the main features, then each DeepStack level.

    ``output`` carries ``pooler_output`` (the merger output) and
    ``deepstack_features``: one feature map per DeepStack layer, in the order
    the tower reaches those layers, each either a tensor or a tuple of
    per-item tensors. vLLM's towers concatenate them in that order on the last
    dim; the consumer splits them back into equal slices. A tower without
    DeepStack ships the main features alone.
    """
    import torch

    levels = getattr(output, "deepstack_features", None) or []
    return torch.cat([rows(output.pooler_output), *(rows(level) for level in levels)], dim=-1)


def mrope_position_channels(grid_thw: Any, merge: int, *, tokens_per_second: float = 1.0) -> torch.Tensor:
    """The 4 position channels vLLM's video pruning appends to each token of a Qwen item.

    For a (t, h, w) patch grid merged ``merge × merge``: the temporal index
    (scaled by ``tokens_per_second`` as the engine scales video time), the
    row, the column, and the merged grid's width repeated. Rows follow the
    tower's token order: frame, then row, then column. Built as floats, the
    dtype they have once concatenated to the embeddings.
    """
    import torch

    t, h, w = (int(v) for v in grid_thw)
    rows, cols = h // merge, w // merge
    frame = torch.arange(t).repeat_interleave(rows * cols).mul(tokens_per_second).long()
    row = torch.arange(rows).repeat_interleave(cols).repeat(t)
    col = torch.arange(cols).repeat(t * rows)
    width = torch.full_like(col, cols)
    return torch.stack([frame, row, col, width], dim=1)


def append_channels(packed: torch.Tensor, channels: torch.Tensor) -> torch.Tensor:
    """``packed`` with ``channels`` concatenated on the last dim, in its dtype and on its device."""
    import torch

    return torch.cat([packed, channels.to(dtype=packed.dtype, device=packed.device)], dim=-1)


#: Channels vLLM's video pruning appends per item, by the tower's layout.
PRUNING_CHANNELS = {"qwen2_5_vl": 4, "qwen3_vl": 5}


def pruning_channels(grid_thw: Any, merge: int, *, modality: str, layout: str) -> torch.Tensor:
    """The channels vLLM appends to one item with video pruning on, built from its (t, h, w) grid.

    ``qwen2_5_vl`` (``qwen2_5_vl.py``): the 4 mrope positions, on images and
    videos. ``qwen3_vl`` (``qwen3_vl.py``): images get the 4 positions and a
    zero fifth channel; video-embedding rows get frame, row and column, an
    ``is_vision_start`` flag (0 on them) and an ``is_video`` flag (1).
    """
    import torch

    positions = mrope_position_channels(grid_thw, merge)
    if layout == "qwen2_5_vl":
        return positions
    if modality == "image":
        return torch.cat([positions, torch.zeros_like(positions[:, :1])], dim=1)
    return torch.cat([positions[:, :3], torch.tensor([[0, 1]]).expand(len(positions), 2)], dim=1)
