"""Llama 4: tiled images, pixel-shuffled vision features, then a linear projector to the LM width.

The engine encodes an image's chunks (tiles) through the vision model (ViT,
pixel shuffle, ``vision_adapter`` MLP to ``projector_output_dim``) and then
``multi_modal_projector`` (``vision_output_dim`` -> text ``hidden_size``), and
ships one tensor per image with the chunks flattened. transformers'
``get_image_features`` stops before ``multi_modal_projector`` (which its
``forward`` applies later), so its output is ``projector_output_dim`` wide —
the config trap. ecwidth applies the projector, as the producer does.

The profile item is the one vLLM profiles: a ``max_patches × 1`` canvas of
full ``image_size`` tiles plus the global tile. One full tile costs tens of
seconds through Scout's tower on a CPU, so the minimal item is a tile of one
pixel-shuffle window (one token). The vision model keeps fixed position and
rotary tables for a full tile and cannot interpolate them, so for a smaller
tile both are swapped, for that call only, for tables of the tile's size.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from copy import copy
from typing import TYPE_CHECKING, Any

from ecwidth.families.adapter import FamilyAdapter, register, rows
from ecwidth.families.items import FixedTiles, ItemSize

if TYPE_CHECKING:
    import torch
    from torch import nn

#: ``max_patches`` of the default Llama-4 image processor: tiles per image before the global one.
MAX_TILES = 16


class Llama4Tiles(FixedTiles):
    """Up to 16 tiles plus a global one; a minimal tile is one pixel-shuffle window."""

    def minimal_patches(self, config: Any) -> int:
        return round(1 / config.vision_config.pixel_shuffle_ratio)

    def tokens_per_tile(self, config: Any) -> int:
        return _tokens_per_tile(config.vision_config)

    def tiles(self, config: Any, item: ItemSize) -> int:
        rows_, cols = _best_canvas(item.height, item.width, config.vision_config.image_size, MAX_TILES)
        return 1 if rows_ * cols == 1 else rows_ * cols + 1

    def profile_tiles(self, config: Any, modality: str) -> int:
        return MAX_TILES + 1


@register
class Llama4Adapter(FamilyAdapter):
    model_types = ("llama4",)
    model_class = "Llama4ForConditionalGeneration"  # transformers has no inner Llama-4 model class
    encoder_attributes = ("vision_model", "multi_modal_projector")
    required_fields = (
        "text_config.hidden_size",
        "vision_config.image_size",
        "vision_config.patch_size",
        "vision_config.pixel_shuffle_ratio",
        "vision_config.vision_output_dim",
    )
    items = {"image": Llama4Tiles()}
    look_alikes = ("vision_config.projector_output_dim", "vision_config.vision_output_dim", "vision_config.hidden_size")

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        pixel_values = item["pixel_values"]
        with _tables_for_tile(model.vision_model, pixel_values.shape[-1]):
            output = model.get_image_features(pixel_values)
        return self.pack(model, modality, output)

    def pack(self, model: nn.Module, modality: str, output: Any) -> torch.Tensor:
        """transformers stops before the projector; vLLM ships its output, the text width."""
        return rows(model.multi_modal_projector(output.last_hidden_state))


def _tokens_per_tile(vision: Any) -> int:
    """Tokens one tile yields: its patch grid shrunk by the pixel shuffle."""
    patches = (vision.image_size // vision.patch_size) ** 2
    return int(patches * vision.pixel_shuffle_ratio**2)


@contextmanager
def _tables_for_tile(vision_model: nn.Module, pixels: int) -> Iterator[None]:
    """Size the vision model's position and rotary tables for a ``pixels``-wide tile, for one call."""
    import torch
    from torch import nn

    if pixels == vision_model.config.image_size:
        yield
        return
    from transformers.models.llama4.modeling_llama4 import Llama4VisionRotaryEmbedding

    tile_config = copy(vision_model.config)
    tile_config.image_size = pixels
    rotary = vision_model.rotary_embedding
    positions, frequencies = vision_model.positional_embedding_vlm, rotary.freqs_ci
    patches = (pixels // tile_config.patch_size) ** 2
    vision_model.positional_embedding_vlm = nn.Parameter(
        torch.cat([positions[:patches], positions[-1:]]),
        requires_grad=False,  # patch rows, then the CLS row
    )
    rotary.freqs_ci = Llama4VisionRotaryEmbedding._compute_freqs_ci(tile_config).to(frequencies.device)
    try:
        yield
    finally:
        vision_model.positional_embedding_vlm, rotary.freqs_ci = positions, frequencies


def _best_canvas(height: int, width: int, tile: int, max_tiles: int) -> tuple[int, int]:
    """(rows, cols) of the tile canvas the Llama-4 processor fits an image into, without distortion.

    Among canvases of at most ``max_tiles`` tiles, the smallest upscale wins
    (or, where every canvas shrinks the image, the mildest downscale); ties go
    to the smallest canvas, which needs the least padding.
    """
    canvases = [(r, c) for r in range(1, max_tiles + 1) for c in range(1, max_tiles // r + 1)]
    scales = {(r, c): min(r * tile / height, c * tile / width) for r, c in canvases}
    upscales = [s for s in scales.values() if s >= 1]
    chosen = min(upscales) if upscales else max(scales.values())
    return min((canvas for canvas in canvases if scales[canvas] == chosen), key=lambda rc: rc[0] * rc[1])
