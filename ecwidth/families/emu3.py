"""Emu3 (``emu3``): served by vLLM's Transformers backend; its image features are LM token embeddings, so predicted only.

vLLM 0.32 lists ``Emu3ForConditionalGeneration`` in
``_TRANSFORMERS_SUPPORTED_MODELS`` (``registry.py``): the Transformers backend
(``vllm/model_executor/models/transformers/multimodal.py``) ships the
``pooler_output`` of ``Emu3Model.get_image_features``, which runs the VQ-VAE
encoder, maps its codes to BPE ids (``vocabulary_mapping``) and embeds them
with the language model's input table: ``[tokens, text_config.hidden_size]``
per image. The width is the text hidden size, but the item is rows of the
LM's embedding table, which zero weights cannot stand in for, so image is
``predicted_only``: ``predict`` answers, and a measurement refuses, saying why.
"""

from __future__ import annotations

from ecwidth.families._backend import BACKEND, LM_TOKEN_EMBEDDINGS
from ecwidth.families.adapter import FamilyAdapter, register


@register
class Emu3Adapter(FamilyAdapter):
    model_types = ("emu3",)
    required_fields = ("text_config.hidden_size",)
    predicted_only = {"image": LM_TOKEN_EMBEDDINGS}
    engine = f"{BACKEND}: text_config.hidden_size, LM input embeddings of the VQ image tokens"
