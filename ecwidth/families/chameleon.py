"""Chameleon (``chameleon``): its image features are LM token embeddings, so predicted only.

vLLM served Chameleon natively until 0.28; 0.32 can load it only through the
Transformers backend (``vllm/model_executor/models/transformers/multimodal.py``;
its class passes the backend's gate, serving it end to end is not verified),
which ships the ``pooler_output`` of ``ChameleonModel.get_image_features``: the
VQ-VAE's codes mapped to BPE ids and embedded with the language model's input
table, ``[tokens, hidden_size]`` per image. The width is the text hidden
size, but the item is rows of the LM's embedding table, which zero weights
cannot stand in for, so image is ``predicted_only``: ``predict`` answers, and a
measurement refuses, saying why.
"""

from __future__ import annotations

from ecwidth.families._backend import BACKEND, LM_TOKEN_EMBEDDINGS
from ecwidth.families.adapter import FamilyAdapter, register


@register
class ChameleonAdapter(FamilyAdapter):
    model_types = ("chameleon",)
    required_fields = ("hidden_size",)
    predicted_only = {"image": LM_TOKEN_EMBEDDINGS}
    engine = f"{BACKEND}: hidden_size, LM input embeddings of the VQ image tokens (natively served until vLLM 0.28)"
