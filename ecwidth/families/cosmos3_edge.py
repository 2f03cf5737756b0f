"""Cosmos3-Edge: a SigLIP2 tower, then a 2×2 patch merger to the text hidden size; no DeepStack.

vLLM 0.32 serves ``cosmos3_edge`` with ``Cosmos3EdgeForConditionalGeneration``
(``model_executor/models/cosmos3_edge.py``): ``embed_multimodal`` runs
``Cosmos3EdgeVisionModel`` (SigLIP2 encoder, ``patch_merging_by_param``, then
``Cosmos3EdgePatchMerger``) and splits per item by ``grid_thw``; images and
videos share the path. Its width is ``projector_config.out_hidden_size``. That
class reads a ``projector_config`` which transformers' ``Cosmos3EdgeConfig``
does not have (the original Diffusers-format checkpoint's schema), so vLLM
cannot serve a transformers-format config as it stands.

We therefore measure what transformers' model feeds its LM:
``Cosmos3EdgeModel.get_image_features`` / ``get_video_features`` apply
``projector`` (``vision hidden × merge² → projector_hidden_size →
text_config.hidden_size``). The width is ``text_config.hidden_size``, the
role ``projector_config.out_hidden_size`` plays in vLLM. ``projector_hidden_size``
(11520 published) is only the merger's intermediate size, and the vision
``hidden_size`` (1152) the tower's: neither is the width.

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
from ecwidth.families.items import PatchGrid

#: ``Cosmos3EdgeImageProcessor`` size: shortest_edge / longest_edge, in pixels.
IMAGE_PIXELS = (256 * 256, 4096 * 4096)


@dataclass(frozen=True)
class Cosmos3EdgeVideoPatches(PatchGrid):
    """A video as frames of patches; no token rule (its budget spans all frames)."""

    counts_tokens: ClassVar[bool] = False


@register
class Cosmos3EdgeAdapter(FamilyAdapter):
    model_types = ("cosmos3_edge",)
    engine = (
        "vllm Cosmos3EdgeForConditionalGeneration (cosmos3_edge.py): projector_config.out_hidden_size; it reads a "
        "projector_config the transformers config lacks, so the width here is transformers' text_config.hidden_size"
    )
    required_fields = (
        "text_config.hidden_size",
        "vision_config.hidden_size",
        "vision_config.patch_size",
        "vision_config.spatial_merge_size",
    )
    items = {"image": PatchGrid(IMAGE_PIXELS), "video": Cosmos3EdgeVideoPatches(IMAGE_PIXELS)}
