"""Idefics3 and SmolVLM: SigLIP tiles, pixel shuffle and a linear connector to the LM width.

The processor splits an image into ``image_size`` tiles (after scaling its
longest edge to four tiles) plus one global tile. vLLM's
``Idefics3ForConditionalGeneration.embed_multimodal`` (which SmolVLM reuses)
runs every tile through the vision model and the connector (pixel shuffle by
``scale_factor``, then a bias-free linear map to the text width) and ships one
tensor per image with its tiles flattened:
``[tiles × image_seq_len, text hidden_size]``. The SigLIP width
(``vision_config.hidden_size``, or ``× scale_factor²`` after the shuffle) is
not what crosses the wire. transformers' ``get_image_features`` returns the
same flattening, per prompt.

Both drop all-zero tiles as padding, so dummy pixels are random. The vision
embeddings take any patch grid up to a full tile (NaViT-style bucketed
positions), so the minimal item is one tile of ``scale_factor × scale_factor``
patches: one token. The profile item is the 4 × 4 split plus the global tile.
"""

from __future__ import annotations

import math
from typing import Any

import torch
from torch import nn

from ecwidth.adapter import DummySize, FamilyAdapter, ItemSize, register
from ecwidth.families._tiles import random_tiles, tiles_within

#: The default processor scales an image's longest edge to this many tiles before splitting it.
LONGEST_EDGE_TILES = 4
PROFILE_TILES = LONGEST_EDGE_TILES**2 + 1


@register
class Idefics3Adapter(FamilyAdapter):
    model_types = ("idefics3", "smolvlm")
    encoder_attributes = ("vision_model", "connector")
    required_fields = ("scale_factor", "vision_config.image_size", "vision_config.patch_size", "text_config")

    _MODEL_CLASSES = {"idefics3": "Idefics3Model", "smolvlm": "SmolVLMModel"}

    def model_class_for(self, config: Any) -> str:
        return self._MODEL_CLASSES[config.model_type]

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        return ("image",)

    def predict(self, config: Any) -> dict[str, int]:
        return {"image": self.lm_hidden_size(config)}

    def embed_tokens(self, config: Any, item: ItemSize) -> int:
        rows, cols = _split_grid(item.height, item.width, config.vision_config.image_size)
        tiles = rows * cols + 1 if rows * cols > 1 else 1
        return tiles * _tokens_per_tile(config)

    def profile_tokens(self, config: Any, modality: str) -> int:
        return PROFILE_TILES * _tokens_per_tile(config)

    def dummy_item(
        self, model: nn.Module, modality: str, size: DummySize, *, max_tokens: int | None = None
    ) -> dict[str, Any]:
        config = model.config
        vision = config.vision_config
        if size == "minimal":
            tiles, pixels = 1, config.scale_factor * vision.patch_size
        else:
            tiles, pixels = tiles_within(PROFILE_TILES, _tokens_per_tile(config), max_tokens), vision.image_size
        dtype, device = self.encoder_dtype_device(model)
        pixel_values = random_tiles(tiles, vision.num_channels, pixels, pixels, dtype=dtype, device=device)
        return {"pixel_values": pixel_values.unsqueeze(0)}  # one prompt holding the image's tiles

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        return model.get_image_features(item["pixel_values"]).pooler_output[0]


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
