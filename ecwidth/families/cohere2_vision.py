"""Command-A Vision (``cohere2_vision``): SigLIP tiles, a pixel-shuffle SwiGLU projector to the text width.

vLLM 0.32's ``Cohere2VisionForConditionalGeneration``
(``model_executor/models/cohere2_vision.py``) runs every tile of an image
through ``SiglipVisionModel``, then ``Cohere2VisionMultiModalProjector``:
pixel shuffle by ``downsample_factor``, ``linear_1`` to
``alignment_intermediate_size``, a SwiGLU that halves it, ``linear_2`` to
``text_config.hidden_size``; ``embed_multimodal`` ships one tensor per image,
its tiles flattened: ``[tiles × (image_size / patch_size / downsample_factor)²,
text_config.hidden_size]``. Images only.

transformers' ``Cohere2VisionModel.get_image_features`` applies the same
projector and returns it as ``pooler_output`` (``[tiles, tokens, hidden]``),
so the defaults fit. Fields that look like the width but are not:
``vision_config.hidden_size`` (the tower), ``alignment_intermediate_size`` and
its half (inside the SwiGLU).

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
    engine = "vllm Cohere2VisionForConditionalGeneration (cohere2_vision.py): text_config.hidden_size via the projector"

    def encode(self, model: Any, modality: str, item: dict[str, Any]) -> Any:
        # A tile smaller than image_size (the minimal one) needs SigLIP's position table interpolated.
        small = item["pixel_values"].shape[-1] != side(model.config.vision_config.image_size)
        return self.pack(model, modality, model.get_image_features(**item, interpolate_pos_encoding=small))
