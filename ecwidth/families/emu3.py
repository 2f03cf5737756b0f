"""Emu3 (``emu3``): its image features are LM token embeddings, so predicted only.

``Emu3Model.get_image_features`` runs the VQ-VAE encoder, maps its codes to
BPE ids (``vocabulary_mapping``) and embeds them with the language model's
input table: ``[tokens, text_config.hidden_size]`` per image. The width is the
text hidden size, but the item is rows of the LM's embedding table, which
zero weights cannot stand in for, so image is ``predicted_only``: ``predict``
answers, and a measurement refuses, saying why.
"""

from __future__ import annotations

from ecwidth.families._backend import LM_TOKEN_EMBEDDINGS
from ecwidth.families.adapter import FamilyAdapter, register


@register
class Emu3Adapter(FamilyAdapter):
    model_types = ("emu3",)
    required_fields = ("text_config.hidden_size",)
    predicted_only = {"image": LM_TOKEN_EMBEDDINGS}
    look_alikes = ("vq_config.embed_dim",)
