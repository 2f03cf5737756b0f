"""Cosmos3-Edge: a SigLIP2 tower, then a 2×2 patch merger to the text hidden size; no DeepStack.

transformers' ``Cosmos3EdgeModel.get_image_features`` / ``get_video_features``
apply ``projector`` (``vision hidden × merge² → projector_hidden_size →
text_config.hidden_size``), as the engine's merger does; images and videos
share the path. vLLM first read the original Diffusers-format schema, whose
``projector_config.out_hidden_size`` plays the text hidden size's role (a
served checkpoint's projector must feed its LM); transformers' schema has no
``projector_config``, and vLLM now reads that schema instead. The width is the
same either way.

Images use the Cosmos3-Edge image processor's budget (65536 to 16777216
pixels, patch 16, merge 2) with Qwen-style ``smart_resize``; the profile
image is the one with the most tokens in it. Videos have no token rule here
(the video budget covers all frames together); their profile item is one frame
of the profile image.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.patch_grid import PatchGrid

#: ``Cosmos3EdgeImageProcessor`` size: shortest_edge / longest_edge, in pixels.
IMAGE_PIXELS = (256 * 256, 4096 * 4096)


@dataclass(frozen=True)
class Cosmos3EdgeVideoPatches(PatchGrid):
    """A video as frames of patches; no token rule (its budget spans all frames)."""

    counts_tokens: ClassVar[bool] = False


@register
class Cosmos3EdgeAdapter(FamilyAdapter):
    model_types = ("cosmos3_edge",)
    required_fields = (
        "text_config.hidden_size",
        "vision_config.hidden_size",
        "vision_config.patch_size",
        "vision_config.spatial_merge_size",
    )
    items = {"image": PatchGrid(IMAGE_PIXELS), "video": Cosmos3EdgeVideoPatches(IMAGE_PIXELS)}
    look_alikes = ("projector_hidden_size", "vision_config.hidden_size")
