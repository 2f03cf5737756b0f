"""Gemma 3: SigLIP crops average-pooled to a fixed token count, projected to the LM width.

vLLM's ``Gemma3ForConditionalGeneration.embed_multimodal`` runs each crop of
an image through the SigLIP tower and ``multi_modal_projector`` (average pool
to ``mm_tokens_per_image`` tokens, RMSNorm, matmul to the text width), then
ships one tensor per image with its crops flattened:
``[crops × mm_tokens_per_image, text hidden_size]``. The SigLIP width
(``vision_config.hidden_size``) is not what crosses the wire.

Pan-and-scan is off in the default processor, so every real image is one
full ``image_size`` crop: that is the profile item (``mm_tokens_per_image``
tokens). A full crop costs tens of seconds through the published tower on a
CPU, so the minimal item is a crop of one pooling window (``kernel × kernel``
patches, one token): the tower interpolates its position embeddings (its own
``interpolate_pos_encoding``) and the projector, whose patch grid is a plain
attribute fixed to the full crop, is told the small grid for that call.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch import nn

from ecwidth.adapter import DummySize, FamilyAdapter, ItemSize, register
from ecwidth.families._tiles import random_tiles


@register
class Gemma3Adapter(FamilyAdapter):
    model_types = ("gemma3",)
    model_class = "Gemma3Model"
    encoder_attributes = ("vision_tower", "multi_modal_projector")
    required_fields = (
        "mm_tokens_per_image",
        "vision_config.image_size",
        "vision_config.patch_size",
        "text_config.hidden_size",
    )

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        return ("image",)

    def predict(self, config: Any) -> dict[str, int]:
        return {"image": self.lm_hidden_size(config)}

    def embed_tokens(self, config: Any, item: ItemSize) -> int:
        return config.mm_tokens_per_image  # one crop whatever the size: pan-and-scan is off by default

    def profile_tokens(self, config: Any, modality: str) -> int:
        return config.mm_tokens_per_image

    def dummy_item(
        self, model: nn.Module, modality: str, size: DummySize, *, max_tokens: int | None = None
    ) -> dict[str, Any]:
        vision = model.config.vision_config
        if size == "minimal":
            pixels = model.multi_modal_projector.kernel_size * vision.patch_size
        else:
            pixels = vision.image_size  # a crop is pooled whole: it cannot be capped below mm_tokens_per_image
        dtype, device = self.encoder_dtype_device(model)
        return {"pixel_values": random_tiles(1, vision.num_channels, pixels, pixels, dtype=dtype, device=device)}

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        pixel_values = item["pixel_values"]
        grid = pixel_values.shape[-1] // model.config.vision_config.patch_size
        with _projector_grid(model.multi_modal_projector, grid):
            crops = model.get_image_features(pixel_values, interpolate_pos_encoding=True).pooler_output
        return crops.flatten(0, 1)


@contextmanager
def _projector_grid(projector: nn.Module, patches_per_side: int) -> Iterator[None]:
    """Let the projector pool a ``patches_per_side``² grid instead of the full crop's, for one call."""
    full = projector.patches_per_image
    projector.patches_per_image = patches_per_side
    try:
        yield
    finally:
        projector.patches_per_image = full
