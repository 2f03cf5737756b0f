"""InternViT's dynamic tiles, as InternVL's default processor cuts an image (InternVL and Qianfan-OCR share them).

An image is cut into the tile canvas whose aspect ratio is closest to its
own, up to ``max_patches`` tiles, plus a thumbnail when it is cut; a video is
one tile a frame. Each tile is pixel-shuffled by ``downsample_ratio``, so a
full tile yields ``image_seq_length`` tokens. The tower interpolates its
position embeddings to any patch grid, so the minimal item is one tile of one
pixel-shuffle window (one token).
"""

from __future__ import annotations

import math
from typing import Any

from ecwidth.families.items import FixedTiles, ItemSize, side

#: ``max_patches`` of the default processor (InternVL's ``max_dynamic_patch``); cropping is on by default.
MAX_TILES = 12


class InternVLTiles(FixedTiles):
    """Dynamic tiles plus a thumbnail, or one tile a frame; a minimal tile is one pixel-shuffle window."""

    def minimal_patches(self, config: Any) -> int:
        return round(1 / config.downsample_ratio)

    def tokens_per_tile(self, config: Any) -> int:
        return _tokens_per_tile(config)

    def tiles(self, config: Any, item: ItemSize) -> int:
        if item.modality == "video":
            return item.frames
        cols, rows = _tile_canvas(item.height, item.width, side(config.vision_config.image_size), MAX_TILES)
        return rows * cols + 1 if rows * cols > 1 else 1

    def profile_tiles(self, config: Any, modality: str) -> int:
        """Every tile plus the thumbnail, or as many frames as the context holds."""
        if modality == "image":
            return MAX_TILES + 1
        return max(1, config.get_text_config().max_position_embeddings // _tokens_per_tile(config))


def _tokens_per_tile(config: Any) -> int:
    """``image_seq_length``: a full tile's patch grid shrunk by the pixel shuffle."""
    vision = config.vision_config
    patches = (side(vision.image_size) // side(vision.patch_size)) ** 2
    return int(patches * config.downsample_ratio**2)


def _tile_canvas(height: int, width: int, tile: int, max_tiles: int) -> tuple[int, int]:
    """(cols, rows) of the tile canvas whose aspect ratio is closest to the image's.

    On a tie the canvas with more tiles wins while the image covers more than
    half of it, so small images are not over-tiled.
    """
    grids = [(c, r) for c in range(1, max_tiles + 1) for r in range(1, max_tiles + 1) if c * r <= max_tiles]
    canvases = sorted(grids, key=lambda cr: cr[0] * cr[1])  # stable: the processor's order on ties
    best, best_diff = (1, 1), math.inf
    for cols, rows in canvases:
        diff = abs(width / height - cols / rows)
        if diff < best_diff:
            best, best_diff = (cols, rows), diff
        elif diff == best_diff and width * height > 0.5 * tile * tile * cols * rows:
            best = (cols, rows)
    return best
