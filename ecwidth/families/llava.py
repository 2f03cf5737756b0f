"""LLaVA, LLaVA-NeXT and LLaVA-OneVision: projector output in the LM's space, one tensor per item.

All three run a CLIP/SigLIP-style tower, pick a hidden layer
(``vision_feature_layer``; a list is concatenated before the projector), drop
the CLS row under the ``default`` strategy, and project with a two-layer MLP
to the text width. What ships per item (transformers and vLLM agree):

- LLaVA: ``[tile tokens, H]`` for one fixed-size image (576 for LLaVA-1.5).
  With a Pixtral tower (Pixtral-12B is published as ``llava``) the image keeps
  its own size and ships one row per 16-pixel patch.
- LLaVA-NeXT: the base tile, then the anyres grid of tiles unpadded to the
  image's aspect ratio with one ``image_newline`` row appended per grid row,
  flattened to ``[tokens, H]``. ``image_newline`` is a vector of size ``H``
  that lives on the model, not in the tower, so it gets real storage here.
- LLaVA-OneVision: images as NeXT, with the grid bilinearly shrunk to at most
  ``anyres_max_N`` tiles' worth; videos as one tile per frame, projected, then
  2× bilinear pooling, frames concatenated, plus one trailing ``image_newline``
  row: ``[frames × ceil(side/2)² + 1, H]`` (vLLM's item comes as ``[1, tokens,
  H]``, flattened here).

The profile item is the real one: full ``image_size`` tiles, as the processor
cuts them (LLaVA-NeXT and OneVision: the grid resolution, or vLLM's fixed
image, with the most tokens; OneVision videos: as many frames as vLLM
profiles). The minimal item keeps the same code path with fewer tokens: every
tile is one patch (LLaVA: one token; NeXT and OneVision: the base tile and
the smallest grid resolution's tiles, one token each, plus one newline per
grid row; a OneVision video: one frame of one 2×2 pooling window, so the
pooling still pools), through ``small_tiles`` (``ecwidth.families._tiles``),
so the packing cuts, unpads, shrinks and appends newlines exactly as for full
tiles. The minimal item's ``image_sizes`` are in that scaled space: the
smallest grid resolution drawn at one patch per tile. A Pixtral tower takes
any image size, so its minimal item is just a one-patch image.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ecwidth.families._tiles import small_tiles
from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import DummySize, ItemSize, anyres_grid, unpadded_grid

if TYPE_CHECKING:
    import torch
    from torch import nn

#: Vision towers whose output starts with a CLS row (``default`` selection drops it).
CLASS_TOKEN_TOWERS = frozenset({"clip_vision_model"})
# vLLM profiles a LLaVA-OneVision video of at most this many frames, within max_model_len.
ONEVISION_PROFILE_MAX_FRAMES = 16
# vLLM's LLaVA-OneVision profile image (height, width), "found via processor tests".
ONEVISION_PROFILE_IMAGE = (944, 1153)


def _is_pixtral(config: Any) -> bool:
    return config.vision_config.model_type == "pixtral"


def tile_tokens(config: Any) -> int:
    """Tokens one square tile yields after the feature-selection strategy."""
    vision = config.vision_config
    tokens = (vision.image_size // vision.patch_size) ** 2 + (vision.model_type in CLASS_TOKEN_TOWERS)
    return tokens - 1 if config.vision_feature_select_strategy == "default" else tokens


@register
class LlavaAdapter(FamilyAdapter):
    model_types = ("llava",)
    takes = ("image",)
    look_alikes = ("vision_config.hidden_size", "vision_config.projection_dim")
    encoder_attributes = ("vision_tower", "multi_modal_projector")
    # text_config.hidden_size is often left to the class default of text_config.model_type (LLaVA-1.5 does).
    required_fields = (
        "vision_config.hidden_size",
        "vision_config.image_size",
        "vision_config.patch_size",
        "text_config.model_type",
    )

    def embed_tokens(self, config: Any, item: ItemSize) -> int:
        if _is_pixtral(config):
            rows, cols = self._pixtral_grid(config, item.height, item.width)
            return rows * cols
        return tile_tokens(config)

    def profile_tokens(self, config: Any, modality: str) -> int:
        side = config.vision_config.image_size
        return self.embed_tokens(config, ItemSize(modality, height=side, width=side))

    def _pixtral_grid(self, config: Any, height: int, width: int) -> tuple[int, int]:
        """Patch rows and columns of an image fitted within the tower's ``image_size``, as Pixtral processes it."""
        vision = config.vision_config
        ratio = max(height / vision.image_size, width / vision.image_size)
        if ratio > 1:
            height, width = math.floor(height / ratio), math.floor(width / ratio)
        return -(-height // vision.patch_size), -(-width // vision.patch_size)

    def _random_pixels(self, model: nn.Module, *leading: int, height: int, width: int) -> torch.Tensor:
        """Random pixel values shaped ``[*leading, channels, height, width]`` next to the encoder."""
        import torch

        dtype, device = self.encoder_dtype_device(model)
        channels = model.config.vision_config.num_channels
        return torch.randn(*leading, channels, height, width, dtype=dtype, device=device)

    def dummy_item(
        self, model: nn.Module, modality: str, size: DummySize, *, max_tokens: int | None = None
    ) -> dict[str, Any]:
        import torch

        vision = model.config.vision_config
        side = vision.patch_size if size == "minimal" else vision.image_size
        if not _is_pixtral(model.config):  # one fixed-size tile, a whole one to profile
            return {"pixel_values": self._random_pixels(model, 1, height=side, width=side)}
        if max_tokens is not None:
            side = min(side, max(1, math.isqrt(max_tokens)) * vision.patch_size)
        return {
            "pixel_values": self._random_pixels(model, 1, height=side, width=side),
            "image_sizes": torch.tensor([[side, side]]),
        }

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        if _is_pixtral(model.config):  # any image size goes through as it is
            return model.get_image_features(**item).pooler_output[0]
        with small_tiles(model.config, item["pixel_values"].shape[-1]) as tower_kwargs:
            return model.get_image_features(**item, **tower_kwargs).pooler_output[0]


@register
class LlavaNextAdapter(LlavaAdapter):
    model_types = ("llava_next",)
    required_fields = LlavaAdapter.required_fields + ("image_grid_pinpoints",)

    def construct(self, config: Any, dtype: torch.dtype) -> nn.Module:
        import torch
        from torch import nn

        model = super().construct(config, dtype)
        # image_newline is a bare parameter of the model, not a submodule build can materialise; the packing
        # moves it next to the features. Assigned through _parameters so build's meta patch leaves it real.
        # Zeros like every other weight: torch.empty would ship whatever bytes the allocator held.
        newline = torch.zeros(model.image_newline.shape, dtype=dtype)
        model._parameters["image_newline"] = nn.Parameter(newline, requires_grad=False)
        return model

    def embed_tokens(self, config: Any, item: ItemSize) -> int:
        return self._image_tokens(config, item.height, item.width)

    def profile_tokens(self, config: Any, modality: str) -> int:
        return self._image_tokens(config, *self._profile_image(config))

    def _image_tokens(self, config: Any, height: int, width: int) -> int:
        """vLLM's count: the base tile, the unpadded tile grid, and one newline per grid row."""
        vision = config.vision_config
        side = vision.image_size // vision.patch_size
        grid_rows, grid_cols = anyres_grid(config.image_grid_pinpoints, vision.image_size, height, width)
        rows, cols = unpadded_grid(height, width, side * grid_rows, side * grid_cols)
        rows, cols = self._shrink_grid(config, rows, cols)
        return tile_tokens(config) + rows * cols + rows

    def _shrink_grid(self, config: Any, rows: int, cols: int) -> tuple[int, int]:
        """The unpadded feature grid as packed (LLaVA-NeXT keeps it whole)."""
        return rows, cols

    def _tiles(self, config: Any, height: int, width: int) -> int:
        """Tiles the tower encodes for an image: its grid resolution cut into tiles, plus the base tile."""
        rows, cols = anyres_grid(config.image_grid_pinpoints, config.vision_config.image_size, height, width)
        return rows * cols + 1

    def _minimal_image(self, config: Any) -> tuple[int, int]:
        """The grid resolution with the fewest tiles: where the processor puts the smallest image."""
        return min((tuple(p) for p in config.image_grid_pinpoints), key=lambda p: self._tiles(config, *p))

    def _profile_image(self, config: Any, max_tokens: int | None = None) -> tuple[int, int]:
        """vLLM's profile image: the grid resolution that yields the most tokens (within ``max_tokens``)."""
        pinpoints = [tuple(p) for p in config.image_grid_pinpoints]
        fitting = [p for p in pinpoints if max_tokens is None or self._image_tokens(config, *p) <= max_tokens]
        if not fitting:
            return self._minimal_image(config)
        return max(fitting, key=lambda p: self._image_tokens(config, *p))

    def dummy_item(
        self, model: nn.Module, modality: str, size: DummySize, *, max_tokens: int | None = None
    ) -> dict[str, Any]:
        import torch

        config = model.config
        height, width = self._minimal_image(config) if size == "minimal" else self._profile_image(config, max_tokens)
        tiles = self._tiles(config, height, width)
        side = full = config.vision_config.image_size
        if size == "minimal":  # that grid resolution drawn at one patch per tile
            side = config.vision_config.patch_size
            height, width = height // full * side, width // full * side
        return {
            "pixel_values": self._random_pixels(model, 1, tiles, height=side, width=side),
            "image_sizes": torch.tensor([[height, width]]),
        }


@register
class LlavaOnevisionAdapter(LlavaNextAdapter):
    model_types = ("llava_onevision",)
    takes = ("image", "video")
    look_alikes = ("vision_config.hidden_size",)  # a SigLIP tower: no projection_dim

    def _shrink_grid(self, config: Any, rows: int, cols: int) -> tuple[int, int]:
        """Bilinear downscale of grids larger than ``anyres_max_N`` tiles (with 10% slack)."""
        vision = config.vision_config
        max_tiles = int(getattr(config, "vision_aspect_ratio", "anyres_max_9").removeprefix("anyres_max_"))
        ratio = math.sqrt(rows * cols / (max_tiles * (vision.image_size // vision.patch_size) ** 2))
        return (int(rows // ratio), int(cols // ratio)) if ratio > 1.1 else (rows, cols)

    def _profile_image(self, config: Any, max_tokens: int | None = None) -> tuple[int, int]:
        """vLLM's fixed OneVision profile image, unless ``max_tokens`` asks for less.

        The ``anyres_max`` shrink makes in-between aspect ratios the worst case, not a grid resolution. vLLM's
        image gives 8748 tokens for the published model; it is near the true worst case, not at it (a
        1159-high, 949-wide image gives 8765).
        """
        if max_tokens is None or self._image_tokens(config, *ONEVISION_PROFILE_IMAGE) <= max_tokens:
            return ONEVISION_PROFILE_IMAGE
        return super()._profile_image(config, max_tokens)

    def _frame_tokens(self, config: Any) -> int:
        """Tokens per video frame: one tile, 2× bilinear pooling."""
        side = config.vision_config.image_size // config.vision_config.patch_size
        return math.ceil(side / 2) ** 2

    def _profile_frames(self, config: Any, max_tokens: int | None = None) -> int:
        """vLLM's profile video length: as many frames as fit ``max_position_embeddings``, at most 16."""
        budget = config.get_text_config().max_position_embeddings if max_tokens is None else max_tokens
        return max(1, min(ONEVISION_PROFILE_MAX_FRAMES, (budget - 1) // self._frame_tokens(config)))

    def embed_tokens(self, config: Any, item: ItemSize) -> int:
        if item.modality == "video":
            return item.frames * self._frame_tokens(config) + 1
        return super().embed_tokens(config, item)

    def profile_tokens(self, config: Any, modality: str) -> int:
        if modality == "video":
            return self._profile_frames(config) * self._frame_tokens(config) + 1
        return super().profile_tokens(config, modality)

    def dummy_item(
        self, model: nn.Module, modality: str, size: DummySize, *, max_tokens: int | None = None
    ) -> dict[str, Any]:
        if modality == "image":
            return super().dummy_item(model, modality, size, max_tokens=max_tokens)
        vision = model.config.vision_config
        if size == "minimal":  # one frame of one 2×2 pooling window
            frames, side = 1, 2 * vision.patch_size
        else:
            frames, side = self._profile_frames(model.config, max_tokens), vision.image_size
        return {"pixel_values_videos": self._random_pixels(model, 1, frames, height=side, width=side)}

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        if modality == "image":
            return super().encode(model, modality, item)
        with small_tiles(model.config, item["pixel_values_videos"].shape[-1]) as tower_kwargs:
            return model.get_video_features(**item, **tower_kwargs).pooler_output[0]
