"""Step3p7 (``step3p7``): a PE ViT with two stride-2 conv downsamplers, one linear to the text width.

The engine runs an image's global view (``vision_config.image_size`` pixels)
and its 504-pixel local crops through the Perception Encoder (two conv
downsamplers, each doubling the channels), then one linear from ``width × 4``
to the text width, and ships one tensor per image: the local crops' rows, then
the global view's. Images only.

The engine reads the original schema: ``vision_config.width`` (and
``understand_projector_stride``), which transformers' ``Step3p7VisionConfig``
renames to ``hidden_size`` on load, so a transformers-format config is
measured through transformers' ``Step3p7Model``. Its ``get_image_features``
runs the same tower and the same projector (``multi_modal_projector``,
``hidden_size × 4 → text hidden_size``) and merges crops and global view in the
same order.

Items: vLLM profiles a ``MAX_IMAGE_SIZE`` (3024) square image, which its
processor (``transformers_utils/processors/step3_vl.py``: ``ImagePatcher``)
cuts into a 6×6 grid of 504-pixel crops plus the global view. The minimal
item is a one-patch global view, one token after both downsamplers (the tower
always interpolates its position table). A cap drops crops first. The
patcher's rules are not a simple count, so no token rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import ItemKind, side

#: The local crop size vLLM's Step3-VL processor and model hard-code, in pixels.
LOCAL_CROP = 504
#: Local crops of vLLM's profile image: a 3024-pixel square cut into 504-pixel windows, 6 × 6.
PROFILE_CROPS = 36


def view_tokens(pixels: int, patch_size: int) -> int:
    """Tokens of one square view: its patch grid after two stride-2 convolutions (kernel 3, padding 1)."""
    grid = pixels // patch_size
    return math.ceil(math.ceil(grid / 2) / 2) ** 2


@dataclass(frozen=True)
class GlobalAndCrops(ItemKind):
    """A global view plus 504-pixel local crops, as ``get_image_features`` takes them."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        vision = config.vision_config
        patch, full = side(vision.patch_size), side(vision.image_size)
        if size == "minimal":
            return {"pixel_values": torch.randn(1, vision.num_channels, patch, patch, dtype=dtype, device=device)}
        crops = PROFILE_CROPS
        if max_tokens is not None:
            spare = max_tokens - view_tokens(full, patch)
            crops = max(0, min(crops, spare // view_tokens(LOCAL_CROP, patch)))
        item = {"pixel_values": torch.randn(1, vision.num_channels, full, full, dtype=dtype, device=device)}
        if crops:
            item["pixel_values_local"] = torch.randn(
                crops, vision.num_channels, LOCAL_CROP, LOCAL_CROP, dtype=dtype, device=device
            )
            item["num_local_patches"] = [crops]
        return item


@register
class Step3p7Adapter(FamilyAdapter):
    model_types = ("step3p7",)
    encoder_attributes = ("vision_model", "multi_modal_projector")
    required_fields = ("vision_config.image_size", "vision_config.patch_size", "text_config.hidden_size")
    items = {"image": GlobalAndCrops()}
    look_alikes = ("vision_config.hidden_size",)
