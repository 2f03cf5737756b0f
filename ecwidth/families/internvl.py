"""InternVL (transformers-native ``-hf`` checkpoints): InternViT tiles, pixel shuffle, an MLP projector.

vLLM serves ``InternVLForConditionalGeneration`` with its InternS1 model
class. Its ``embed_multimodal`` runs each tile (an image's dynamic tiles plus
a thumbnail, or a video's frames, one tile each) through the vision tower,
drops the CLS token, pixel-shuffles by ``downsample_ratio`` and applies
``multi_modal_projector`` (LayerNorm, two linears to the text width). It ships
one tensor per image or video with the tiles flattened:
``[tiles × image_seq_length, text hidden_size]``. The InternViT width, or its
``/ downsample_ratio²`` after the shuffle, is not what crosses the wire.

Both transformers (``input_modalities``) and vLLM accept video, so it is
measured too: frames go through the same path as image tiles.

The tower interpolates its position embeddings to any patch grid, so the
minimal item is one tile of one pixel-shuffle window (one token). The profile
image is the largest tile count the default processor allows (``max_patches``
tiles plus the thumbnail); the profile video fills the text model's context
with frames, as vLLM fills the model length.
"""

from __future__ import annotations

import math
from typing import Any

from ecwidth.families.adapter import FamilyAdapter, register
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


@register
class InternVLAdapter(FamilyAdapter):
    model_types = ("internvl",)
    engine = (
        "vllm InternS1ForConditionalGeneration (interns1.py) for InternVLForConditionalGeneration: "
        "multi_modal_projector to text_config.hidden_size"
    )
    required_fields = (
        "downsample_ratio",
        "vision_config.image_size",
        "vision_config.patch_size",
        "text_config.hidden_size",
    )
    items = {"image": InternVLTiles(), "video": InternVLTiles()}

    def encode(self, model: Any, modality: str, item: dict[str, Any]) -> Any:
        # vLLM runs a video's frames through the image path, one tile each.
        return self.pack(model, modality, model.get_image_features(item["pixel_values"]))


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
