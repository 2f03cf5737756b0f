"""Unlimited-OCR (``unlimited_ocr``): DeepSeek-OCR's SAM + CLIP DeepEncoder, one linear to the text width, newlines.

transformers' port feeds the LM, per image, the SAM tower (to
``downsample_channels[-1]``), CLIP over SAM's patch grid, the two
concatenated, then ``multi_modal_projector`` (one linear to the text width),
laid out as a grid with one ``image_newline`` row per grid row, then
``view_separator``. vLLM parses this ``model_type`` with its own
``UnlimitedOCRConfig`` (the original checkpoint's ``deepseek_vl_v2``-style
schema, ``transformers_utils/config.py``), so only the original checkpoint is
served, natively; its ``projector_config.n_embed`` agrees with the port's
``text_config.hidden_size`` wherever the checkpoint works, since both splice
into the LM's embeddings.

``image_newline`` and ``view_separator`` are bare parameters of the model, which
the build leaves on meta: ``encode`` gives them zeros first. Items are
DeepSeek-OCR-2's (one global view, no crops): one SAM patch is the minimal
item (one row, its newline, the separator); the profile item is one view of
``sam_config.image_size`` (1024: 16 × 17 rows and the separator). Crops are
the processor's settings, so there is no token rule.
"""

from __future__ import annotations

from ecwidth.families.adapter import register
from ecwidth.families.deepseek_ocr2 import DeepseekOcr2Adapter


@register
class UnlimitedOcrAdapter(DeepseekOcr2Adapter):
    model_types = ("unlimited_ocr",)
    transformers_since = "5.20.0"
    separators = ("view_separator", "image_newline")
    look_alikes = ("vision_config.encoder_config.hidden_size", "vision_config.sam_config.output_channels")
