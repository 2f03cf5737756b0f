"""Cohere Compass (North Micro Vision): DeepStack vision, packed as the producer ships it.

The vision tower is Qwen3-VL's, with axial 2D rope. transformers returns the
merger output in ``pooler_output`` and one feature map per
``deepstack_visual_indexes`` entry in ``deepstack_features``. vLLM's Cohere
vision transformer concatenates them on the last dim inside the tower, main
features first, then each DeepStack level in layer order, and
``embed_multimodal`` returns that tensor per image; the consumer splits it back
into ``out_hidden_size`` slices. So the shipped width is
``out_hidden_size × (1 + len(deepstack_visual_indexes))``.

transformers and vLLM differ on modalities: transformers' model also encodes
video (``get_video_features``), but vLLM registers images only, so only images
are measured here. With EVS pruning on, vLLM appends 5 position channels to
each image; it is off by default and a config cannot show it.

Token counts follow the Qwen2-VL ``smart_resize`` rule of the published
preprocessor (32 px per token). The profile image is vLLM's: the most tokens the
pixel budget allows, laid out as the most nearly square grid whose aspect ratio
is at most 200.
"""

from __future__ import annotations

import math
from typing import Any

import torch
from torch import nn

from ecwidth.adapter import DummySize, FamilyAdapter, ItemSize, register
from ecwidth.families._qwen_vision import cap_grid, minimal_grid, patch_item, smart_resize

# size.shortest_edge / size.longest_edge of the published preprocessor_config.json, as
# transcribed by third parties. The image processor class defaults (56², 28²·1280, patch 14)
# belong to Qwen2-VL and do not match this model's 16 px patches.
IMAGE_MIN_PIXELS = 65536
IMAGE_MAX_PIXELS = 16777216
# The image processor refuses aspect ratios beyond this.
MAX_ASPECT_RATIO = 200


@register
class CohereCompassAdapter(FamilyAdapter):
    model_types = ("cohere_compass",)
    model_class = "CohereCompassModel"
    encoder_attributes = ("visual",)
    required_fields = (
        "vision_config.out_hidden_size",
        "vision_config.deepstack_visual_indexes",
        "vision_config.patch_size",
        "text_config.hidden_size",
        "text_config.rope_parameters",  # per layer type; the LM (built on meta) cannot be laid out without it
    )

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        return ("image",)

    def deepstack_levels(self, config: Any, modality: str) -> int:
        return len(config.vision_config.deepstack_visual_indexes or ())

    def predict(self, config: Any) -> dict[str, int]:
        return {"image": config.vision_config.out_hidden_size * (1 + self.deepstack_levels(config, "image"))}

    def embed_tokens(self, config: Any, item: ItemSize) -> int:
        self._check_image(item.modality)
        unit = self._unit(config.vision_config)
        h, w = smart_resize(item.height, item.width, unit, IMAGE_MIN_PIXELS, IMAGE_MAX_PIXELS)
        return (h // unit) * (w // unit)

    def profile_tokens(self, config: Any, modality: str) -> int:
        self._check_image(modality)
        _, h, w = self._profile_grid(config.vision_config)
        return h * w // config.vision_config.spatial_merge_size**2

    def dummy_item(
        self, model: nn.Module, modality: str, size: DummySize, *, max_tokens: int | None = None
    ) -> dict[str, Any]:
        vision = model.config.vision_config
        grid = minimal_grid(vision) if size == "minimal" else self._profile_grid(vision)
        if max_tokens is not None:
            grid = cap_grid(grid, vision.spatial_merge_size, max_tokens)
        dtype, device = self.encoder_dtype_device(model)
        return patch_item(vision, grid, dtype=dtype, device=device)

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        out = model.get_image_features(item["pixel_values"], image_grid_thw=item["grid_thw"])
        levels = [level[0] for level in out.deepstack_features or ()]
        return torch.cat([out.pooler_output[0], *levels], dim=-1)

    @staticmethod
    def _check_image(modality: str) -> None:
        if modality != "image":
            raise ValueError(f"cohere_compass is served for images only (as vLLM registers it), not {modality!r}")

    @staticmethod
    def _unit(vision: Any) -> int:
        return vision.patch_size * vision.spatial_merge_size

    def _profile_grid(self, vision: Any) -> tuple[int, int, int]:
        """(t, h, w) patches of vLLM's largest image: the most tokens with an allowed aspect ratio."""
        merge = vision.spatial_merge_size
        for tokens in range(IMAGE_MAX_PIXELS // self._unit(vision) ** 2, 0, -1):
            rows = max(d for d in range(1, math.isqrt(tokens) + 1) if tokens % d == 0)
            if tokens // rows / rows <= MAX_ASPECT_RATIO:
                return 1, rows * merge, tokens // rows * merge
        raise ValueError(f"a pixel budget of {IMAGE_MAX_PIXELS} holds no {self._unit(vision)} px token")
