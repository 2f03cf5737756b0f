"""Unlimited-OCR (``unlimited_ocr``): DeepSeek-OCR's SAM + CLIP DeepEncoder, one linear to the text width, newlines.

vLLM 0.32 serves Unlimited-OCR's original checkpoint with
``UnlimitedOCRForCausalLM`` (``unlimited_ocr.py``), a subclass of
``DeepseekOCRForCausalLM`` that reads vLLM's own ``UnlimitedOCRConfig`` (a
``deepseek_vl_v2``-style ``projector_config``), not transformers'
``unlimited_ocr`` schema. Its ``embed_multimodal`` ships, per image, the
``MlpProjector`` (``linear``, SAM and CLIP features concatenated, 2048 in)
output laid out as a grid with one ``image_newline`` row per grid row, the
local crops first, then the global view, then ``view_seperator``:
``[tokens, projector_config.n_embed]``.

transformers' port (vLLM's registry has no ``UnlimitedOcrForConditionalGeneration``,
so it would go through the Transformers backend, which ships the
``pooler_output`` of ``get_image_features``) feeds the LM the same layout: the
SAM tower (to ``downsample_channels[-1]``), CLIP over SAM's patch grid
(``encoder_config.hidden_size``), the two concatenated, then
``multi_modal_projector`` (one linear to ``text_config.hidden_size``),
newline rows and ``view_separator``. It ships ``text_config.hidden_size``; the
native class ships ``n_embed``, which **agrees** wherever the checkpoint
works, since both splice into the LM's embeddings. Not the width: the
projector's input (``downsample_channels[-1] + encoder_config.hidden_size``).

``image_newline`` and ``view_separator`` are bare parameters of the model, which
the build leaves on meta: ``encode`` gives them zeros first. Items are
DeepSeek-OCR-2's (one global view, no crops): one SAM patch is the minimal
item (one row, its newline, the separator); the profile item is one view of
``sam_config.image_size`` (1024: 16 × 17 rows and the separator). Crops are
the processor's settings, so there is no token rule.
"""

from __future__ import annotations

from ecwidth.families._backend import BACKEND
from ecwidth.families.adapter import register
from ecwidth.families.deepseek_ocr2 import DeepseekOcr2Adapter


@register
class UnlimitedOcrAdapter(DeepseekOcr2Adapter):
    model_types = ("unlimited_ocr",)
    separators = ("view_separator", "image_newline")
    engine = (
        f"{BACKEND}: text_config.hidden_size via multi_modal_projector. vllm UnlimitedOCRForCausalLM "
        "(unlimited_ocr.py) serves only the original checkpoint; it ships projector_config.n_embed, which agrees"
    )
