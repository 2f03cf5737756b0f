"""Qianfan-OCR (``qianfan_ocr``): InternViT tiles, pixel shuffle, the ``mlp1`` projector to the text width.

vLLM 0.32 serves it with ``QianfanOCRForConditionalGeneration``
(``model_executor/models/qianfan_ocr.py``), a bare subclass of
``InternVLChatModel`` (``internvl.py``): ``embed_multimodal`` runs an image's
dynamic tiles plus a thumbnail through InternViT, drops the CLS row,
pixel-shuffles by ``downsample_ratio`` and applies ``mlp1`` (LayerNorm,
Linear to ``text_config.hidden_size``, GELU, Linear to the same), shipping
``[tiles × image_seq_length, text_config.hidden_size]`` per image. Images
only: its processing info registers no video processor.

The engine reads the original remote-code schema (``force_image_size``,
``ps_version``, ``select_layer``, ``max_dynamic_patch``...), which
transformers' ``QianfanOCRConfig`` does not carry, so a transformers-format
config is measured through transformers' ``QianfanOCRModel``:
``get_image_features`` applies the same pixel shuffle and the same projector
(``multi_modal_projector``: LayerNorm, ``linear_1`` to the text width, GELU,
``linear_2``), so both ship ``text_config.hidden_size``. Neither the ViT
``hidden_size`` nor its ``4×`` after the shuffle is the width.

Items are InternVL's: a minimal tile of one pixel-shuffle window (the tower
interpolates its position table), a profile of ``max_patches`` (12) tiles plus
the thumbnail, as GotOcr2's default processor cuts the image vLLM profiles.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.internvl import InternVLTiles


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
    engine = (
        "vllm QianfanOCRForConditionalGeneration (qianfan_ocr.py, an InternVLChatModel): text_config.hidden_size "
        "via mlp1; it reads the original schema, transformers' QianfanOCRModel ships the same width"
    )
