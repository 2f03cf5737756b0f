"""VideoLLaMA3 (``video_llama_3``): a SigLIP-style tower, per-item merging, the projector to the text width.

``VideoLlama3Model.get_image_features`` (``get_video_features`` calls it with
the video's grid) runs the tower on flattened patches with a ``grid_thw``,
then a per-item ``merge_sizes``² bilinear downsampling (``pixel_unshuffle``,
the width unchanged), then the projector (two linears to the text width),
split per item: ``[t·h·w / merge², text hidden]``. The projector is the last
step before the LM, so a native class would ship the same width.

Items: patches ``[t·h·w, channels × patch²]`` with ``<modality>_grid_thw`` and
``<modality>_merge_sizes``; the processors merge images by 1 and videos by 2
(``merge_size``), so the minimal image is one patch and the minimal video
one 2 × 2 frame. Their default patch size (14) is not the tower's (16 by
default): the checkpoint's preprocessor config sets patch size and budget,
so there is no token rule; the profile image is the most tokens within the
image processor's default budget, the profile video one frame of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecwidth.families._backend import ProcessorPatches
from ecwidth.families.adapter import FamilyAdapter, register

#: ``VideoLlama3ImageProcessor`` / ``VideoLlama3VideoProcessor`` defaults: (min, max) pixels, and merge_size.
IMAGE_PIXELS, IMAGE_MERGE = (56 * 56, 28 * 28 * 1280), 1
VIDEO_PIXELS, VIDEO_MERGE = (128 * 28 * 28, 28 * 28 * 768), 2


@dataclass(frozen=True)
class MergeSizedPatches(ProcessorPatches):
    """Patches whose merge size is an input of the feature method, not a config field."""

    merge: int = 1

    def vision(self, config: Any) -> Any:
        return _WithMerge(config.vision_config, self.merge)

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        item = super().make(config, modality, size, max_tokens=max_tokens, dtype=dtype, device=device)
        item[f"{modality}_merge_sizes"] = torch.tensor([self.merge], device=device)
        return item


class _WithMerge:
    """A vision config read through, with the processor's ``merge_size`` as its ``spatial_merge_size``."""

    def __init__(self, vision: Any, merge: int) -> None:
        self._vision, self.spatial_merge_size = vision, merge

    def __getattr__(self, name: str) -> Any:
        return getattr(self._vision, name)


@register
class VideoLlama3Adapter(FamilyAdapter):
    model_types = ("video_llama_3",)
    required_fields = ("vision_config.patch_size", "text_config.hidden_size")
    items = {
        "image": MergeSizedPatches(IMAGE_PIXELS, merge=IMAGE_MERGE),
        "video": MergeSizedPatches(VIDEO_PIXELS, merge=VIDEO_MERGE),
    }
    look_alikes = ("vision_config.hidden_size",)
