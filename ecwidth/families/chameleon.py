"""Chameleon (``chameleon``): its image features are LM token embeddings, so predicted only.

``ChameleonModel.get_image_features`` maps the VQ-VAE's codes to BPE ids and
embeds them with the language model's input table: ``[tokens, hidden_size]``
per image. The width is the text hidden size, but the item is rows of the
LM's embedding table, which zero weights cannot stand in for, so image is
``predicted_only``: ``predict`` answers, and a measurement refuses, saying why.
"""

from __future__ import annotations

from ecwidth.families._backend import LM_TOKEN_EMBEDDINGS
from ecwidth.families.adapter import FamilyAdapter, register


@register
class ChameleonAdapter(FamilyAdapter):
    model_types = ("chameleon",)
    required_fields = ("hidden_size",)
    predicted_only = {"image": LM_TOKEN_EMBEDDINGS}
    look_alikes = ("vq_config.embed_dim",)
