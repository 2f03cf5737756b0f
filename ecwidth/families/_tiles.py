"""Small tiles through a LLaVA-style tower and its anyres packing (LLaVA-NeXT, LLaVA-NeXT-Video, Granite-4 Vision).

A full tile costs seconds through a published tower on a CPU, and the width
does not depend on the tile size, so minimal items use one-patch tiles. The
tower interpolates its position embeddings to them; the packing, which
reshapes each tile's features by ``vision_config.image_size // patch_size``
and reads ``image_grid_pinpoints`` in pixels of full tiles, is told the tile
size and the grid resolutions scaled to it for that call.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def small_tiles(config: Any, tile: int) -> Iterator[dict[str, bool]]:
    """Let ``tile``-pixel tiles through the tower and the anyres packing, for one call; yields the tower's kwargs.

    Both ``vision_config.image_size`` and ``image_grid_pinpoints`` are scaled
    to the tile until the block ends (even when it raises); the tower is asked
    to interpolate its position embeddings. Full tiles change nothing.
    """
    vision = config.vision_config
    full, pinpoints = vision.image_size, getattr(config, "image_grid_pinpoints", None)
    if tile == full:
        yield {}
        return
    vision.image_size = tile
    if pinpoints is not None:
        config.image_grid_pinpoints = [[height // full * tile, width // full * tile] for height, width in pinpoints]
    try:
        yield {"interpolate_pos_encoding": True}
    finally:
        vision.image_size = full
        if pinpoints is not None:
            config.image_grid_pinpoints = pinpoints
