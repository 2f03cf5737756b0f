"""Gemma 3n (``gemma3n``): vision and audio soft tokens, each embedded into the text width, predicted only.

vLLM's ``Gemma3nForConditionalGeneration`` (``gemma3n_mm.py``) runs the vision
tower (``AutoModel.from_config(config.vision_config)``: transformers'
``TimmWrapperModel``, MobileNet-V5), reshapes its map to
``vision_soft_tokens_per_image`` rows of ``vision_config.hidden_size``, and
embeds them with ``embed_vision``, a ``Gemma3nMultimodalEmbedder``: RMSNorm,
``embedding_projection`` to ``text_config.hidden_size``, a weightless
RMSNorm. Audio goes through ``Gemma3nAudioEncoder`` (``audio_config.hidden_size``)
and ``embed_audio``, the same embedder, to ``text_config.hidden_size``;
masked rows and the pad to ``audio_soft_tokens_per_image`` are the
embedder's hard embedding of the last vocabulary id, at the same width.
Both modalities ship the text hidden size.

transformers' config class reads the published file, but it builds the
vision tower through timm, which ecwidth does not import, and the audio
tower sits in the same model; so both are ``predicted_only``: ``predict``
answers from the rule above, and a measurement refuses, saying why.
"""

from __future__ import annotations

from ecwidth.families.adapter import FamilyAdapter, register

TIMM = (
    "transformers builds Gemma 3n's vision tower through timm (TimmWrapperModel), which ecwidth does not import, "
    "and the audio tower sits in the same model"
)


@register
class Gemma3nAdapter(FamilyAdapter):
    model_types = ("gemma3n",)
    required_fields = ("text_config.hidden_size",)
    predicted_only = {"image": TIMM, "audio": TIMM}
    look_alikes = ("vision_config.hidden_size", "audio_config.hidden_size")
