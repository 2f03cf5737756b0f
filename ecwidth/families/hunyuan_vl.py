"""HunYuan-VL / HunyuanOCR (``hunyuan_vl``): served by vLLM's Transformers backend; the merger's ``text_hidden_size``.

The tower ends in ``HunYuanVLVisionPatchMerger``: a ``spatial_merge_size`` conv
to ``hidden_size × 2``, a 1×1 conv to ``hidden_size × 4``, a learned newline
column after every merged row, ``mlp`` to ``vision_config.text_hidden_size``,
and learned begin and end rows, all at that width:
``[merged_h × (merged_w + 1) + 2, text hidden]`` per image.
``HunYuanVLConfig`` overwrites ``vision_config.text_hidden_size`` with the
text model's ``hidden_size`` (a published flat config keeps it at the top
level, where transformers reads the text config from), so the width is the
text hidden size whatever the vision config says, ``out_hidden_size`` (unused
by the merger) and a stale ``text_hidden_size`` included. The merger is the
last step before the LM, so a native class would ship the same width.

Items: Qwen-style flattened patches with ``image_grid_thw``, one merge block
minimal (``2 × 2`` patches, the smallest grid the merger's conv accepts); the
profile item is the largest square the config's ``max_image_size`` allows.
The processor resizes by its own rule: no token rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ecwidth.families._backend import ProcessorPatches
from ecwidth.families.adapter import FamilyAdapter, register


@dataclass(frozen=True)
class HunYuanPatches(ProcessorPatches):
    """Patches plus ``image_grid_thw``; the profile item is a square of ``vision_config.max_image_size`` pixels."""

    pixels: tuple[int, int] = (0, 0)  # the budget is the config's, read in profile_grid

    def profile_grid(self, config: Any, modality: str) -> tuple[int, int, int]:
        vision = self.vision(config)
        unit = vision.patch_size * vision.spatial_merge_size
        side = vision.max_image_size // unit * vision.spatial_merge_size
        return 1, side, side


@register
class HunYuanVLAdapter(FamilyAdapter):
    model_types = ("hunyuan_vl",)
    required_fields = ("vision_config.patch_size", "vision_config.spatial_merge_size", "vision_config.max_image_size")
    items = {"image": HunYuanPatches()}
    look_alikes = ("vision_config.out_hidden_size", "vision_config.hidden_size")

    def required_paths(self, raw: Mapping[str, Any]) -> tuple[str, ...]:
        width = "text_config.hidden_size" if "text_config" in raw else "hidden_size"  # published configs are flat
        return (*self.required_fields, width)
