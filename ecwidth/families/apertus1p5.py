"""Apertus 1.5 (``apertus1p5``): image and audio features are LM token embeddings, so both are predicted only.

Neither modality runs an encoder that projects into the LM: images go through
a VQ tokenizer and audio through the WavTokenizer encoder and codebook, their
codes are offset into the shared vocabulary (``image_token_offset``,
``audio_token_offset``), and ``get_input_embeddings()`` embeds them:
``[tokens, text_config.hidden_size]`` per item. The width is the text hidden
size, but the item is rows of the LM's embedding table, which zero weights
cannot stand in for, so both modalities are ``predicted_only``: ``predict``
answers, and a measurement refuses, saying why.
"""

from __future__ import annotations

from ecwidth.families._backend import LM_TOKEN_EMBEDDINGS
from ecwidth.families.adapter import FamilyAdapter, register

#: Why the audio items, WavTokenizer codes embedded with the LM's table, can only be predicted.
AUDIO_TOKEN_EMBEDDINGS = (
    "its audio features are the language model's input embeddings of WavTokenizer codes, "
    "which need the LM's real embedding table; the width is the text hidden size"
)


@register
class Apertus1p5Adapter(FamilyAdapter):
    model_types = ("apertus1p5",)
    transformers_since = "5.24.0"
    required_fields = ("text_config.hidden_size",)
    predicted_only = {"image": LM_TOKEN_EMBEDDINGS, "audio": AUDIO_TOKEN_EMBEDDINGS}
    look_alikes = ("vision_config.embed_dim", "audio_config.codebook_dim")
