"""GOT-OCR 2.0 (``got_ocr2``): served by vLLM's Transformers backend; the conv projector's output, the text width.

vLLM 0.32 has no GOT-OCR class; the Transformers backend
(``vllm/model_executor/models/transformers/multimodal.py``) ships the
``pooler_output`` of ``GotOcr2Model.get_image_features``: the SAM-style tower
(windowed attention, a neck to ``vision_config.output_channels``), then
``GotOcr2MultiModalProjector`` (two stride-2 convs, the second to
``text_config.hidden_size``, and a linear), flattened to ``[tokens, text hidden]``.
The projector is the last step before the LM, so a native class ships the
same width. Not the width: ``vision_config.hidden_size``, ``output_channels``
and its double (the first conv).

Items: one ``image_size`` tile, the minimal item too (the tower's absolute
and relative position tables are fixed to it). Tiling (``crop_to_patches``)
is the processor's setting, so there is no token rule.
"""

from __future__ import annotations

from ecwidth.families._backend import BACKEND, ProcessorTiles
from ecwidth.families.adapter import FamilyAdapter, register


@register
class GotOcr2Adapter(FamilyAdapter):
    model_types = ("got_ocr2",)
    required_fields = ("vision_config.image_size", "vision_config.patch_size", "text_config.hidden_size")
    items = {"image": ProcessorTiles()}
    engine = f"{BACKEND}: text_config.hidden_size via GotOcr2MultiModalProjector"
