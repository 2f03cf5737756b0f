"""Granite 4 Vision: several projected feature maps on the last dim, and no main slice.

Granite 4 Vision tiles an image LLaVA-NeXT style for a SigLIP tower, but has no
single projector. One Window Q-Former per ``deepstack_layer_map`` entry projects
a vision layer to the LM hidden size, and one per ``spatial_target_layers``
entry projects one corner of each 2×2 block of ``spatial_vision_layer``. Each
map is packed the LLaVA-NeXT way (base tile, unpadded high-resolution tiles, an
``image_newline`` per row), so all maps have the same tokens.

transformers returns ``deepstack_features = [(llm_layer, [per-image map]), ...]``
and no ``pooler_output``. Its LM zeroes the image-token embeddings and adds each
map before its own decoder layer. The engine ships one tensor per image with
every map concatenated on the last dim, layerwise maps first, then spatial
ones, each in config order, and splits it back in slices of the LM hidden
size. No slice is a main embedding: even the map for LLM layer 0 is added to
zeroed embeddings, so the width is the LM hidden size times the maps alone
(8× for the published maps). transformers and vLLM agree on the maps and their
order; the concatenation is vLLM's packing, and ours.

Token counts follow vLLM's rule: LLaVA-NeXT anyres with each tile's patch grid
scaled by ``downsample_rate``. The profile item is the real one: the grid
pinpoint with the most tokens, as vLLM's dummy builder picks it, in full
``image_size`` tiles.

The width does not depend on the tile size, and a full tile costs seconds
through the published tower on a CPU (even tiles of one 8×8-patch Q-Former
window, the smallest the projectors take as they are, cost over a second), so
the minimal item takes the same code path with fewer tokens: the smallest
pinpoint (a base tile and one high-resolution tile), each tile one window of
the smallest size ``downsample_rate`` allows (its denominator in patches a
side, pooled to its numerator in queries: 2×2 patches to one token for the
published ``4/8``), so 3 tokens with the newline row. The SigLIP tower
interpolates its position embeddings to that tile; the packing
(``vision_config.image_size``, ``image_grid_pinpoints``) and each projector's
window geometry (tile grid, window and query sides, and its learned query and
window-position tables cut to their top-left corner of that size) are set for
that call and restored after, so windowing, area downsampling, 2×2 spatial
sampling, the Q-Former, the output projection to the LM width and the packing
all run as for full tiles. The minimal item's ``image_sizes`` are the pinpoint
scaled to that tile.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ecwidth.families._tiles import small_tiles
from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import DummySize, ItemSize, anyres_grid, unpadded_grid

if TYPE_CHECKING:
    import torch
    from torch import nn


@register
class Granite4VisionAdapter(FamilyAdapter):
    model_types = ("granite4_vision",)
    takes = ("image",)
    encoder_attributes = ("vision_tower", "layerwise_projectors", "spatial_projectors")
    required_fields = (
        "text_config.hidden_size",
        "vision_config.image_size",
        "vision_config.patch_size",
        "deepstack_layer_map",
        "downsample_rate",
        "image_grid_pinpoints",
    )
    look_alikes = ("text_config.hidden_size", "vision_config.hidden_size")

    def deepstack_levels(self, config: Any, modality: str) -> int:
        """Every feature map the image ships: there is no main slice for them to follow."""
        return len(config.deepstack_layer_map) + len(config.spatial_target_layers)

    def predict(self, config: Any) -> dict[str, int]:
        # Not a field x (1 + levels): no slice is a main one, so the LM width times the maps alone.
        return {"image": config.text_config.hidden_size * self.deepstack_levels(config, "image")}

    def embed_tokens(self, config: Any, item: ItemSize) -> int:
        if item.modality != "image":
            raise ValueError(f"granite4_vision encodes images only, not {item.modality!r}")
        return image_tokens(config, item.height, item.width)

    def profile_tokens(self, config: Any, modality: str) -> int:
        return image_tokens(config, *self._pinpoint(config, "profile"))

    def dummy_item(
        self, model: nn.Module, modality: str, size: DummySize, *, max_tokens: int | None = None
    ) -> dict[str, Any]:
        import torch

        config = model.config
        height, width = self._pinpoint(config, size, max_tokens)
        tiles = tile_count(config, height, width)
        side = full = config.vision_config.image_size
        if size == "minimal":  # the pinpoint drawn in tiles of the smallest Q-Former window
            side = Fraction(config.downsample_rate).denominator * config.vision_config.patch_size
            height, width = height // full * side, width // full * side
        channels = config.vision_config.num_channels
        dtype, device = self.encoder_dtype_device(model)
        pixels = torch.randn(1, tiles, channels, side, side, dtype=dtype, device=device)
        return {"pixel_values": pixels, "image_sizes": torch.tensor([[height, width]], device=device)}

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        import torch

        _give_newline_storage(model, *self.encoder_dtype_device(model))
        pixel_values = item["pixel_values"]
        tile = pixel_values.shape[-1]
        with small_tiles(model.config, tile) as tower_kwargs, _one_window_tiles(model, tile):
            out = model.get_image_features(pixel_values, item["image_sizes"], **tower_kwargs)
        return torch.cat([per_image[0] for _, per_image in out.deepstack_features], dim=-1)

    @staticmethod
    def _pinpoint(config: Any, size: DummySize, max_tokens: int | None = None) -> tuple[int, int]:
        """(height, width) of the dummy image: a grid pinpoint, so no tile is padded.

        ``minimal``: fewest tiles, then fewest tokens. ``profile``: most tokens,
        within ``max_tokens`` where given (the minimal image where none fits).
        """
        pinpoints = [tuple(p) for p in config.image_grid_pinpoints]
        smallest = min(pinpoints, key=lambda p: (tile_count(config, *p), image_tokens(config, *p)))
        if size == "minimal":
            return smallest
        fitting = [p for p in pinpoints if max_tokens is None or image_tokens(config, *p) <= max_tokens]
        return max(fitting, key=lambda p: image_tokens(config, *p)) if fitting else smallest


def tile_count(config: Any, height: int, width: int) -> int:
    """Tiles the processor cuts an image into: one base tile plus its best pinpoint's grid."""
    rows, cols = anyres_grid(config.image_grid_pinpoints, config.vision_config.image_size, height, width)
    return 1 + rows * cols


def image_tokens(config: Any, height: int, width: int) -> int:
    """Tokens one image yields: base tile, then the unpadded high-resolution grid with a newline per row."""
    side = int(config.vision_config.image_size // config.vision_config.patch_size * Fraction(config.downsample_rate))
    rows, cols = anyres_grid(config.image_grid_pinpoints, config.vision_config.image_size, height, width)
    grid_h, grid_w = unpadded_grid(height, width, side * rows, side * cols)
    return side * side + grid_h * grid_w + grid_h


@contextmanager
def _one_window_tiles(model: nn.Module, tile: int) -> Iterator[None]:
    """Make every Q-Former projector take a tile, no wider than a window, as one window, for one call.

    The window is the tile's patches a side and pools to ``downsample_rate``
    of them in queries; the learned query and window-position tables are cut
    to their top-left corner of those sizes. Full tiles change nothing.
    """
    from torch import nn

    patches = tile // model.config.vision_config.patch_size
    projectors = [*model.layerwise_projectors, *model.spatial_projectors]
    if all(projector.image_side == patches for projector in projectors):
        yield
        return
    queries = int(patches * Fraction(model.config.downsample_rate))
    full = [(p.image_side, p.window_side, p.query_side, p.query_length, p.query, p.image_positions) for p in projectors]
    for projector in projectors:
        projector.image_side = projector.window_side = patches
        projector.query_side, projector.query_length = queries, queries**2
        projector.query = nn.Parameter(_corner(projector.query, queries), requires_grad=False)
        projector.image_positions = nn.Parameter(_corner(projector.image_positions, patches), requires_grad=False)
    try:
        yield
    finally:
        for projector, (image_side, window_side, query_side, query_length, query, positions) in zip(projectors, full):
            projector.image_side, projector.window_side = image_side, window_side
            projector.query_side, projector.query_length = query_side, query_length
            projector.query, projector.image_positions = query, positions


def _corner(table: torch.Tensor, side: int) -> torch.Tensor:
    """The top-left ``side × side`` corner of a ``[1, n², C]`` table laid out as an n × n raster."""
    full = math.isqrt(table.shape[1])
    return table.view(1, full, full, -1)[:, :side, :side].reshape(1, side * side, -1)


def _give_newline_storage(model: nn.Module, dtype: torch.dtype, device: torch.device) -> None:
    """Give ``image_newline`` real storage: a bare parameter of the model, which ``encoder_attributes`` cannot name."""
    import torch
    from torch import nn

    if model.image_newline.is_meta:
        storage = torch.zeros(model.image_newline.shape, dtype=dtype, device=device)  # no stale allocator bytes
        model.image_newline = nn.Parameter(storage, requires_grad=False)
