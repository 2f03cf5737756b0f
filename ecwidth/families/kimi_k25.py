"""Kimi-K2.5 / K2.6: MoonViT-3D, then the patch-merging projector to the text hidden size, as ``vision_chunk``.

vLLM has one modality, ``vision_chunk``: an image, or a chunk of
``temporal_merge_kernel_size`` (4) video frames that the tower pools over time
into one frame's worth of tokens. The projector's input is
``vision_config.hidden_size × merge_kernel_size²`` (and
``projection_hidden_size`` is only its pre-norm's width): neither is the width.

transformers' ``Kimi_K25Model.get_image_features`` applies the same
``mm_projector`` and splits per item, so we call it for ``vision_chunk``
items; its ``get_video_features`` is the same call. Published configs keep
the remote-code field names (``vt_hidden_size``, ``mm_hidden_size``), which
transformers' port does not read; ``translate`` maps them onto its names, so
the tower is built at the published sizes rather than at class defaults.

Tokens follow vLLM's ``media_tokens_calculator`` (``KimiK25FusedVisionProcessor``,
``navit_resize_image``) at the published ``media_proc_cfg``: an image is
scaled to at most 16384 patches and 512 a side, padded to whole merge
windows; a video chunk uses 4096 patches a frame. The profile item is the
larger of a 3000×3000 image and a 4-frame chunk of it: the image, 65² tokens.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import ItemKind, ItemSize
from ecwidth.families.patch_grid import cap_grid

if TYPE_CHECKING:
    import torch
    from torch import nn

#: Published ``media_proc_cfg`` of Kimi-K2.5: patch budget of an image, of one video frame, and per side.
IN_PATCH_LIMIT, IN_PATCH_LIMIT_EACH_FRAME, PATCH_LIMIT_ON_ONE_SIDE = 16384, 4096, 512
#: Frames of one video chunk (``temporal_merge_kernel_size``).
FRAMES_PER_CHUNK = 4
#: vLLM's dummy media side (``MaxImageTokenMeta``).
PROFILE_SIDE = 3000


def navit_grid(height: int, width: int, patch: int, merge: int, patch_limit: int) -> tuple[int, int]:
    """(h, w) in patches of a resized, padded image, as vLLM's ``navit_resize_image``."""
    s1 = math.sqrt(patch_limit / (max(1.0, width // patch) * max(1.0, height // patch)))
    scale = min(1.0, s1, PATCH_LIMIT_ON_ONE_SIDE * patch / width, PATCH_LIMIT_ON_ONE_SIDE * patch / height)
    new_w = min(max(1, int(width * scale)), PATCH_LIMIT_ON_ONE_SIDE * patch)
    new_h = min(max(1, int(height * scale)), PATCH_LIMIT_ON_ONE_SIDE * patch)
    factor = merge * patch
    return math.ceil(new_h / factor) * merge, math.ceil(new_w / factor) * merge


@dataclass(frozen=True)
class VisionChunk(ItemKind):
    """Patches as ``[t·h·w, 3, patch, patch]`` images plus ``grid_thw``; the minimal item is one merge window."""

    counts_tokens: ClassVar[bool] = True

    def _sizes(self, config: Any) -> tuple[int, int]:
        vision = config.vision_config
        return int(vision.patch_size), int(vision.merge_kernel_size[0])

    def profile_grid(self, config: Any) -> tuple[int, int, int]:
        patch, merge = self._sizes(config)
        image = navit_grid(PROFILE_SIDE, PROFILE_SIDE, patch, merge, IN_PATCH_LIMIT)
        frame = navit_grid(PROFILE_SIDE, PROFILE_SIDE, patch, merge, IN_PATCH_LIMIT_EACH_FRAME)
        return (FRAMES_PER_CHUNK, *frame) if frame[0] * frame[1] >= image[0] * image[1] else (1, *image)

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        patch, merge = self._sizes(config)
        grid = (1, merge, merge) if size == "minimal" else self.profile_grid(config)
        if max_tokens is not None:  # tokens are h·w/merge², whatever t; so cap a single frame
            grid = cap_grid((1, *grid[1:]), merge, max_tokens)
        t, h, w = grid
        return {
            "pixel_values": torch.randn(t * h * w, 3, patch, patch, dtype=dtype, device=device),
            "image_grid_thw": torch.tensor([[t, h, w]], device=device),
        }

    def tokens(self, config: Any, item: ItemSize) -> int:
        patch, merge = self._sizes(config)
        if item.frames is None:
            h, w = navit_grid(item.height, item.width, patch, merge, IN_PATCH_LIMIT)
            return h * w // merge**2
        h, w = navit_grid(item.height, item.width, patch, merge, IN_PATCH_LIMIT_EACH_FRAME)
        return math.ceil(item.frames / FRAMES_PER_CHUNK) * h * w // merge**2

    def profile_tokens(self, config: Any, modality: str) -> int:
        _, h, w = self.profile_grid(config)
        return h * w // self._sizes(config)[1] ** 2


#: The remote-code vision field names published checkpoints carry, and transformers' names for them.
_VISION_FIELDS = {
    "vt_hidden_size": "hidden_size",
    "vt_num_hidden_layers": "num_hidden_layers",
    "vt_num_attention_heads": "num_attention_heads",
    "vt_intermediate_size": "intermediate_size",
    "init_pos_emb_height": "pos_emb_height",
    "init_pos_emb_width": "pos_emb_width",
    "init_pos_emb_time": "pos_emb_time",
}


@register
class KimiK25Adapter(FamilyAdapter):
    model_types = ("kimi_k25",)
    encoder_attributes = ("vision_tower", "mm_projector")
    required_fields = (
        "text_config.hidden_size",
        "vision_config.hidden_size",
        "vision_config.patch_size",
        "vision_config.merge_kernel_size",
    )
    items = {"vision_chunk": VisionChunk()}
    look_alikes = ("vision_config.hidden_size", "projection_hidden_size")

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        return ("vision_chunk",) if getattr(config, "vision_config", None) is not None else ()

    def translate(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Published Kimi-K2.5/K2.6 configs keep the remote-code schema (``vt_hidden_size``, ``mm_hidden_size``);
        transformers' port reads other names and would silently fill in its defaults for them."""
        vision = raw.get("vision_config")
        if isinstance(vision, dict):
            for published, native in _VISION_FIELDS.items():
                if published in vision and native not in vision:
                    vision[native] = vision[published]
            if "mm_hidden_size" in vision:
                raw.setdefault("projection_hidden_size", vision["mm_hidden_size"])
        return raw

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        return self.pack(model, modality, model.get_image_features(**item))
