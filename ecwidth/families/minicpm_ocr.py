"""MiniCPM-OCR (``minicpm_ocr``): MiniCPM-V 4.6's tower and merger, the text width.

The same pipeline as MiniCPM-V 4.6 (``minicpmv4_6.py``): NaViT SigLIP, the
window ``vit_merger`` (skipped in ``"4x"`` mode, this family's default, for
text-dense pages), then the merger to the text width, per slice or frame.
transformers' ``MiniCPMOcrModel.get_image_features`` / ``get_video_features``
return that in ``pooler_output``, which both engine paths ship.

Both paths load transformers' own MiniCPM-OCR config and processor classes,
so the records' ``transformers`` field says no vLLM release can load it under
its declared transformers pin.

Items are MiniCPM-V 4.6's NaViT units; the config has no top-level
``image_size``, so a profile slice is the image processor's default
``scale_resolution`` (448) square, as the engine's dummy image is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecwidth.families._navit import NaViTUnits
from ecwidth.families.adapter import FamilyAdapter, register

#: ``MiniCPMOcrImageProcessor.scale_resolution``: the side of a slice, in pixels.
SCALE_RESOLUTION = 448
#: The first transformers release with ``minicpm_ocr``'s config and processor classes.
FIRST_TRANSFORMERS = "5.21.0"


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
    transformers_since = FIRST_TRANSFORMERS
    look_alikes = ("vision_config.hidden_size",)
