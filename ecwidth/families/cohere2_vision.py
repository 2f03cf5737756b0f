"""Command-A Vision (``cohere2_vision``): SigLIP tiles, a pixel-shuffle SwiGLU projector to the text width.

Every tile of an image goes through SigLIP, then the projector (pixel shuffle
by ``downsample_factor``, a SwiGLU at ``alignment_intermediate_size``,
``linear_2`` to the text width); one image ships its tiles flattened.
transformers' ``get_image_features`` applies the same projector and returns
it as ``pooler_output``, so the defaults fit.

Items: vLLM profiles an image ``max_patches`` tiles tall and one wide
(``get_image_size_with_most_features``), which the default processor
(crop to patches, 1..12 tiles, a thumbnail when it cuts) makes 12 tiles plus
the thumbnail. The minimal item is one tile of one shuffle window
(``downsample_factor`` patches a side), the tower interpolating its position
table.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import FixedTiles, ItemSize, side

#: The default image processor's ``max_patches`` (``min_patches`` is 1); a cut image also gets a thumbnail.
MAX_TILES = 12


def tile_canvas(height: int, width: int, tile: int, max_tiles: int) -> tuple[int, int]:
    """(cols, rows) of the canvas Cohere2-Vision's processor cuts an image into (``get_optimal_tiled_canvas``).

    The canvas that needs the least upscaling, or where every canvas needs
    downscaling, the least downscaling; ties go to fewer tiles.
    """
    canvases = sorted(
        ((c, r) for c in range(1, max_tiles + 1) for r in range(1, max_tiles + 1) if c * r <= max_tiles),
        key=lambda cr: cr[0] * cr[1],
    )
    scales = [min(c * tile / width, r * tile / height) for c, r in canvases]
    if all(scale < 1 for scale in scales):
        return canvases[max(range(len(scales)), key=lambda i: (scales[i], -i))]
    upscales = [scale if scale >= 1 else float("inf") for scale in scales]
    return canvases[min(range(len(upscales)), key=lambda i: (upscales[i], i))]


class Cohere2Tiles(FixedTiles):
    """SigLIP tiles of ``image_size`` pixels; a minimal tile is one pixel-shuffle window."""

    def minimal_patches(self, config: Any) -> int:
        return config.downsample_factor

    def tokens_per_tile(self, config: Any) -> int:
        vision = config.vision_config
        return (side(vision.image_size) // side(vision.patch_size) // config.downsample_factor) ** 2

    def tiles(self, config: Any, item: ItemSize) -> int:
        cols, rows = tile_canvas(item.height, item.width, side(config.vision_config.image_size), MAX_TILES)
        return 1 + cols * rows if cols * rows > 1 else 1

    def profile_tiles(self, config: Any, modality: str) -> int:
        tile = side(config.vision_config.image_size)
        return self.tiles(config, ItemSize(modality, height=tile * MAX_TILES, width=tile))


@register
class Cohere2VisionAdapter(FamilyAdapter):
    model_types = ("cohere2_vision",)
    required_fields = (
        "downsample_factor",
        "vision_config.image_size",
        "vision_config.patch_size",
        "text_config.hidden_size",
    )
    items = {"image": Cohere2Tiles()}
    look_alikes = ("vision_config.hidden_size", "alignment_intermediate_size")

    def encode(self, model: Any, modality: str, item: dict[str, Any]) -> Any:
        # A tile smaller than image_size (the minimal one) needs SigLIP's position table interpolated.
        small = item["pixel_values"].shape[-1] != side(model.config.vision_config.image_size)
        return self.pack(model, modality, model.get_image_features(**item, interpolate_pos_encoding=small))
