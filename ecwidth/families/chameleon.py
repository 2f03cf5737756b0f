"""Chameleon (``chameleon``): its image features are LM token embeddings, so predicted only.

``ChameleonModel.get_image_features`` maps the VQ-VAE's codes to BPE ids and
embeds them with the language model's input table: ``[tokens, hidden_size]``
per image. The width is the text hidden size, but the item is rows of the
LM's embedding table, which zero weights cannot stand in for, so image is
``predicted_only``: ``predict`` answers, and a measurement refuses, saying why.
"""

from __future__ import annotations

from ecwidth.engines.facts import every_vllm, not_served
from ecwidth.families._backend import LM_TOKEN_EMBEDDINGS
from ecwidth.families.adapter import FamilyAdapter, register

#: Why no vLLM release ships a Chameleon image (read from the code, not run).
_NO_IMAGES = (
    "ChameleonForConditionalGeneration is in _PREVIOUSLY_SUPPORTED_MODELS (registry.py, until 0.28); the "
    "Transformers backend fallback picks the text-only TransformersForCausalLM, because ChameleonConfig is flat "
    "(config/model.py _get_transformers_backend_cls: MultiModal only when hf_config is not hf_text_config)"
)


@register
class ChameleonAdapter(FamilyAdapter):
    model_types = ("chameleon",)
    required_fields = ("hidden_size",)
    predicted_only = {"image": LM_TOKEN_EMBEDDINGS}
    look_alikes = ("vq_config.embed_dim",)
    serving = every_vllm(not_served(_NO_IMAGES))
