"""Qianfan-OCR (``qianfan_ocr``): InternViT tiles, pixel shuffle, the ``mlp1`` projector to the text width.

The engine's class is a bare ``InternVLChatModel``: an image's dynamic tiles
plus a thumbnail run through InternViT, the CLS row is dropped, the rest is
pixel-shuffled by ``downsample_ratio`` and ``mlp1`` (LayerNorm, Linear to the
text width, GELU, Linear) ships ``[tiles × image_seq_length, text hidden]``
per image. Images only: its processing info registers no video processor.
transformers' ``QianfanOCRModel.get_image_features`` applies the same pixel
shuffle and projector (``multi_modal_projector``), so the defaults fit. vLLM
first read the original remote-code schema (``force_image_size``,
``ps_version``, ``select_layer`` ...), then transformers'; the width is the
same either way.

Items are InternVL's: a minimal tile of one pixel-shuffle window (the tower
interpolates its position table), a profile of ``max_patches`` (12) tiles plus
the thumbnail, as GotOcr2's default processor cuts the image vLLM profiles.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families._intern_tiles import InternVLTiles
from ecwidth.families.adapter import FamilyAdapter, register


class QianfanTiles(InternVLTiles):
    """InternVL's dynamic tiles; images only, so every profile is ``max_patches`` tiles plus the thumbnail."""

    def profile_tiles(self, config: Any, modality: str) -> int:
        return super().profile_tiles(config, "image")


@register
class QianfanOCRAdapter(FamilyAdapter):
    model_types = ("qianfan_ocr",)
    required_fields = (
        "downsample_ratio",
        "vision_config.image_size",
        "vision_config.patch_size",
        "vision_config.hidden_size",
        "text_config.hidden_size",
    )
    items = {"image": QianfanTiles()}
    look_alikes = ("vision_config.hidden_size",)
