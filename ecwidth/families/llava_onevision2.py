"""LLaVA-OneVision-2 (``llava_onevision2``): its own ViT and a patch merger ending at the text width; engine only.

The checkpoint is remote code (``LlavaOnevision2Config``); no transformers
release has the model type, so the spec is the raw config read as data
(``engine_only``) and the width is predicted from the engine's rule.
``llava_onevision2.py:LlavaOnevision2VisionTower`` ends in
``LlavaOnevision2PatchMerger(d_model=text_config.hidden_size)`` (LayerNorm,
``spatial_merge_size**2`` patches concatenated, Linear, GELU, Linear to the
text width), and ``_process_image_input`` / ``_process_video_input`` split its
rows per item: images and videos (frames through the same tower) both ship
``text_config.hidden_size``. The vision config's own ``out_hidden_size`` is
not read by the merger: it only looks like the width.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ecwidth.families.adapter import register
from ecwidth.families.internvl_chat import _TextWidth

_ENGINE_ONLY = "no transformers class can build this family (remote code, which ecwidth never runs)"


@register
class LlavaOnevision2Adapter(_TextWidth):
    model_types = ("llava_onevision2",)
    predicted_only = {"image": _ENGINE_ONLY, "video": _ENGINE_ONLY}
    look_alikes = ("vision_config.hidden_size", "vision_config.out_hidden_size")

    def required_paths(self, raw: Mapping[str, Any]) -> tuple[str, ...]:
        return ("text_config.hidden_size",)
