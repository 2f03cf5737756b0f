"""VideoLLaMA3 (``video_llama_3``): served by vLLM's Transformers backend; the projector's output, the text width.

vLLM 0.32 has no VideoLLaMA3 class; the Transformers backend
(``vllm/model_executor/models/transformers/multimodal.py``) ships the
``pooler_output`` of ``VideoLlama3Model.get_image_features`` (``get_video_features``
calls it with the video's grid): the SigLIP-style tower on flattened patches
with a ``grid_thw``, then a per-item ``merge_sizes``² bilinear downsampling
(``pixel_unshuffle``, the width unchanged), then ``VideoLlama3Projector`` (two
linears to ``text_config.hidden_size``), split per item:
``[t·h·w / merge², text_config.hidden_size]`` for images and videos. The
projector is the last step before the LM, so a native class ships the same
width. Not the width: ``vision_config.hidden_size``.

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

from ecwidth.families._backend import BACKEND, ProcessorPatches
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
    engine = f"{BACKEND}: text_config.hidden_size via VideoLlama3Projector, image and video"
