"""MiniCPM-OCR (``minicpm_ocr``): served by vLLM's Transformers backend; MiniCPM-V 4.6's tower and merger, the text width.

vLLM 0.32 has no MiniCPM-OCR class (its MiniCPM-V classes read the
``minicpmv4_6`` / remote-code schemas); the Transformers backend
(``vllm/model_executor/models/transformers/multimodal.py``) ships the
``pooler_output`` of ``MiniCPMOcrModel.get_image_features`` /
``get_video_features``: the same pipeline as MiniCPM-V 4.6 (``minicpmv4_6.py``):
NaViT SigLIP, the window ``vit_merger`` (skipped in ``"4x"`` mode, this
family's default, for text-dense pages), then ``MiniCPMOcrMerger`` to
``text_config.hidden_size``, per slice or frame: ``[tokens,
text_config.hidden_size]``, the width MiniCPM-V 4.6's native class ships.
Not the width: ``vision_config.hidden_size``.

Items are MiniCPM-V 4.6's NaViT units; the config has no top-level
``image_size``, so a profile slice is the image processor's default
``scale_resolution`` (448) square.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecwidth.families._backend import BACKEND
from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.minicpmv4_6 import NaViTUnits

#: ``MiniCPMOcrImageProcessor.scale_resolution``: the side of a slice, in pixels.
SCALE_RESOLUTION = 448


@dataclass(frozen=True)
class OcrUnits(NaViTUnits):
    """NaViT units whose profile side is the processor's ``scale_resolution``."""

    def unit_side(self, config: Any) -> int:
        return SCALE_RESOLUTION


@register
class MiniCPMOcrAdapter(FamilyAdapter):
    model_types = ("minicpm_ocr",)
    required_fields = ("vision_config.patch_size", "text_config.hidden_size")
    items = {"image": OcrUnits(), "video": OcrUnits()}
    engine = f"{BACKEND}: text_config.hidden_size via MiniCPMOcrMerger"
