"""LightOnOCR (``lighton_ocr``): Pixtral vision, a patch merger and a projector to the text width, as Mistral 3.

vLLM 0.32 serves LightOnOCR's original checkpoint with
``LightOnOCRForConditionalGeneration`` (``lightonocr.py``), a subclass of
``Mistral3ForConditionalGeneration`` that reads the original Mistral-3-style
config (``image_token_index``, ``multimodal_projector_bias``), not
transformers' ``lighton_ocr`` schema. Its ``embed_multimodal`` ships
``Mistral3MultiModalProjector``'s output: RMSNorm, the merging of
``spatial_merge_size``² patches, two linears to ``text_config.hidden_size``.

transformers' port (vLLM's registry has no ``LightOnOcrForConditionalGeneration``,
so it would go through the Transformers backend, whose ``pooler_output`` is
what its ``get_image_features`` returns) feeds the LM the same steps,
``vision_projection`` (norm, ``patch_merger``, ``linear_1`` to the text width,
``linear_2``): ``[merged patches, text_config.hidden_size]`` per image, **the
same width** as the native class. Not the width: ``vision_config.hidden_size``.

Items are Mistral 3's: one image of whole merged patches with its
``image_sizes``; the profile is a square of the longest edge
(``vision_config.image_size``), and the same token rule.
"""

from __future__ import annotations

from ecwidth.families.adapter import register
from ecwidth.families.mistral3 import Mistral3Adapter


@register
class LightOnOcrAdapter(Mistral3Adapter):
    model_types = ("lighton_ocr",)
    engine = (
        "vllm LightOnOCRForConditionalGeneration (lightonocr.py, a Mistral3 subclass) serves only the original "
        "checkpoint; it ships text_config.hidden_size via Mistral3MultiModalProjector, which agrees"
    )
