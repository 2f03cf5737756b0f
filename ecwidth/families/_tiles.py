"""Inputs shared by the tiled image families: Gemma3, Idefics3/SmolVLM, Llama-4 and InternVL.

Their processors cut one image into square tiles (crops, chunks, patches; a
global thumbnail counts as one more) and the encoder runs the tiles as rows of
a batch. The producer ships one item's tiles flattened into a single
``[tiles × tokens_per_tile, width]`` tensor.
"""

from __future__ import annotations

import torch


def random_tiles(
    count: int, channels: int, height: int, width: int, *, dtype: torch.dtype, device: torch.device
) -> torch.Tensor:
    """``count`` tiles of random pixels; zeros would not do, since Idefics3 drops all-zero tiles as padding."""
    return torch.randn(count, channels, height, width, dtype=dtype, device=device)


def tiles_within(tiles: int, tokens_per_tile: int, max_tokens: int | None) -> int:
    """Cap a tile count so the item yields at most ``max_tokens`` tokens, keeping at least one tile."""
    if max_tokens is None:
        return tiles
    return max(1, min(tiles, max_tokens // tokens_per_tile))


def side(value: int | list[int] | tuple[int, ...]) -> int:
    """One side of a square size that a config may store as an int or as ``[height, width]``."""
    return int(value if isinstance(value, int) else value[0])
