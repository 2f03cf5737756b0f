"""Gemma 3: SigLIP crops average-pooled to a fixed token count, projected to the LM width.

Each crop goes through the SigLIP tower and ``multi_modal_projector`` (average
pool to ``mm_tokens_per_image`` tokens, RMSNorm, matmul to the text width);
one image ships its crops flattened.

Pan-and-scan is off in the default processor, so every real image is one
full ``image_size`` crop: that is the profile item (``mm_tokens_per_image``
tokens). A full crop costs tens of seconds through the published tower on a
CPU, so the minimal item is a crop of one pooling window (``kernel × kernel``
patches, one token): the tower interpolates its position embeddings (its own
``interpolate_pos_encoding``) and the projector, whose patch grid is a plain
attribute fixed to the full crop, is told the small grid for that call.

ShieldGemma 2 (``shieldgemma2``) is a Gemma 3 checkpoint with its own config
class; vLLM has no class of its own for it and serves it under the
``Gemma3ForConditionalGeneration`` architecture, so the same record holds.
transformers maps ``shieldgemma2`` to ``Gemma3ForConditionalGeneration`` (or a
classification head) and to no base model, so the adapter builds
``Gemma3Model`` for both model types: it takes a ``ShieldGemma2Config`` as it is.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import FixedTiles

if TYPE_CHECKING:
    import torch
    from torch import nn


class Gemma3Crops(FixedTiles):
    """One crop pooled to ``mm_tokens_per_image`` tokens; the minimal crop is one pooling window."""

    def minimal_patches(self, config: Any) -> int:
        vision = config.vision_config
        return vision.image_size // vision.patch_size // math.isqrt(config.mm_tokens_per_image)

    def tokens_per_tile(self, config: Any) -> int:
        return config.mm_tokens_per_image  # one crop whatever the size: pan-and-scan is off by default


@register
class Gemma3Adapter(FamilyAdapter):
    model_types = ("gemma3", "shieldgemma2")
    model_class = "Gemma3Model"  # transformers maps shieldgemma2 to no base model; Gemma3Model takes its config
    required_fields = (
        "mm_tokens_per_image",
        "vision_config.image_size",
        "vision_config.patch_size",
        "text_config.hidden_size",
    )
    items = {"image": Gemma3Crops()}
    look_alikes = ("vision_config.hidden_size",)

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        pixel_values = item["pixel_values"]
        grid = pixel_values.shape[-1] // model.config.vision_config.patch_size
        with _projector_grid(model.multi_modal_projector, grid):
            output = model.get_image_features(pixel_values, interpolate_pos_encoding=True)
        return self.pack(model, modality, output)


@contextmanager
def _projector_grid(projector: nn.Module, patches_per_side: int) -> Iterator[None]:
    """Let the projector pool a ``patches_per_side``² grid instead of the full crop's, for one call."""
    full = projector.patches_per_image
    projector.patches_per_image = patches_per_side
    try:
        yield
    finally:
        projector.patches_per_image = full
