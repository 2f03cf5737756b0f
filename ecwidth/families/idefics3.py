"""Idefics3 and SmolVLM: SigLIP tiles, pixel shuffle and a linear connector to the LM width.

The processor splits an image into ``image_size`` tiles (after scaling its
longest edge to four tiles) plus one global tile. Every tile goes through the
vision model and the connector (pixel shuffle by ``scale_factor``, then a
bias-free linear map to the text width); one image ships its tiles
flattened, ``[tiles × image_seq_len, text hidden_size]``. transformers'
``get_image_features`` returns the same flattening, per prompt.

Both drop all-zero tiles as padding, so dummy pixels are random. The vision
embeddings take any patch grid up to a full tile (NaViT-style bucketed
positions), so the minimal item is one tile of ``scale_factor × scale_factor``
patches: one token. The profile item is the 4 × 4 split plus the global tile.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import FixedTiles, ItemSize

if TYPE_CHECKING:
    import torch

#: The default processor scales an image's longest edge to this many tiles before splitting it.
LONGEST_EDGE_TILES = 4
PROFILE_TILES = LONGEST_EDGE_TILES**2 + 1


class Idefics3Tiles(FixedTiles):
    """The longest edge split into four tiles, plus the global tile; a minimal tile is one shuffle window."""

    def minimal_patches(self, config: Any) -> int:
        return config.scale_factor

    def tokens_per_tile(self, config: Any) -> int:
        return _tokens_per_tile(config)

    def tiles(self, config: Any, item: ItemSize) -> int:
        rows, cols = _split_grid(item.height, item.width, config.vision_config.image_size)
        return rows * cols + 1 if rows * cols > 1 else 1

    def profile_tiles(self, config: Any, modality: str) -> int:
        return PROFILE_TILES

    def shape(self, tiles: torch.Tensor) -> dict[str, Any]:
        return {"pixel_values": tiles.unsqueeze(0)}  # one prompt holding the image's tiles


@register
class Idefics3Adapter(FamilyAdapter):
    model_types = ("idefics3", "smolvlm")
    required_fields = ("scale_factor", "vision_config.image_size", "vision_config.patch_size", "text_config")
    items = {"image": Idefics3Tiles()}
    look_alikes = ("vision_config.hidden_size",)


def _tokens_per_tile(config: Any) -> int:
    """``image_seq_len``: a full tile's patch grid shrunk by the pixel shuffle."""
    vision = config.vision_config
    return (vision.image_size // vision.patch_size) ** 2 // config.scale_factor**2


def _split_grid(height: int, width: int, tile: int) -> tuple[int, int]:
    """(rows, cols) of tiles the default processor cuts an image into.

    The longest edge is scaled to ``LONGEST_EDGE_TILES`` tiles (the other edge
    keeps the aspect ratio, rounded up to an even size), then each edge is
    covered by whole tiles.
    """
    longest = LONGEST_EDGE_TILES * tile
    if width >= height:
        height, width = int(longest / (width / height)), longest
        height += height % 2
    else:
        height, width = longest, int(longest * (width / height))
        width += width % 2
    return math.ceil(max(height, 1) / tile), math.ceil(max(width, 1) / tile)
