"""MiniCPM-V's NaViT items: slices or frames packed along the last dim, shared by MiniCPM-V 4.6/4.7 and MiniCPM-OCR.

An item is NaViT-packed patches ``[1, channels, patch, units × h × w × patch]``
with ``target_sizes`` (each unit's (h, w) in patches). The minimal item is
one unit of one merged token: ``4 × 4`` patches in ``16x`` mode, ``2 × 2`` in
``4x``. vLLM profiles an image one slice wide and ``max_slice_nums`` (9)
times as tall, which the processor cuts into 9 slices plus the source image;
it is approximated here by ten square slices (the source is really resized
to the same area at the 1:9 aspect ratio). A profile video is square frames,
one slice each, as many as fit ``max_model_len`` (the text model's
``max_position_embeddings``), at most 16. The slicing rules are not
reproduced, so no token rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecwidth.families.items import ItemKind, side

#: The processor's default ``max_slice_nums``: vLLM's profile image is this many slices plus the source.
MAX_SLICES = 9
#: vLLM's ``_MAX_FRAMES_PER_VIDEO`` (``minicpmv.py``).
MAX_FRAMES = 16


def merge(config: Any) -> int:
    """Patches a side that become one token: 2 for the merger, 2 more for the ViT merger in ``16x`` mode."""
    return 2 if config.downsample_mode == "4x" else 4


@dataclass(frozen=True)
class NaViTUnits(ItemKind):
    """Square units (slices or frames) packed along the last dim, as the MiniCPM-V processors pack them."""

    def unit_side(self, config: Any) -> int:
        """Pixels a side of a profile slice or frame: the config's ``image_size``."""
        return int(config.image_size)

    def unit_tokens(self, config: Any) -> int:
        """Tokens of one square slice or frame."""
        return (self.unit_side(config) // side(config.vision_config.patch_size) // merge(config)) ** 2

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        patch = side(config.vision_config.patch_size)
        if size == "minimal":
            units, grid = 1, merge(config)
        else:
            grid = self.unit_side(config) // patch
            if modality == "image":
                units = MAX_SLICES + 1
            else:
                units = min(MAX_FRAMES, config.get_text_config().max_position_embeddings // self.unit_tokens(config))
            if max_tokens is not None:
                units = min(units, max_tokens // self.unit_tokens(config))
            units = max(1, units)
        channels = config.vision_config.num_channels
        if modality == "video":  # one frame per row, its patches along the last dim
            frames = torch.randn(units, channels, patch, grid * grid * patch, dtype=dtype, device=device)
            return {
                "pixel_values_videos": frames,
                "target_sizes_videos": torch.tensor([[grid, grid]], device=device),
            }
        return {
            "pixel_values": torch.randn(1, channels, patch, units * grid * grid * patch, dtype=dtype, device=device),
            "target_sizes": torch.tensor([[grid, grid]] * units, device=device),
        }
