"""VibeVoice-ASR (``vibevoice_asr``): two tokenizers' latents, projected to the text width and summed.

``VibeVoiceAsrModel.get_audio_features`` runs the 24 kHz waveform (the
processor's ``input_values``) through the acoustic and the semantic tokenizer
encoders (causal convs, ``prod(downsampling_ratios)`` = 3200 samples a latent
by default), each latent through its own half of the projector (linear to
the text width, RMSNorm, linear), the two halves summed, the rows the
``padding_mask`` covers: ``[ceil(samples / hop_length), text hidden]``. The
projector is the last step before the LM, so a native class would ship the
same width. ``get_audio_features`` adds σ-VAE noise to the acoustic latents by
default, as the backend calls it; that changes values, not the width.

Items: a 24 kHz waveform ``[1, 1, samples]``, padded to whole hops
(``pad_to_multiple_of``, as the feature extractor pads it), and its
``padding_mask`` of real samples; one sample is the minimal clip (one latent).
The backend profiles ``chunk_length`` seconds of audio from the feature
extractor, which has none, so 30 s: 225 latents by default.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import HopWaveform


@dataclass(frozen=True)
class HopLatents(HopWaveform):
    """A 24 kHz waveform, one latent each ``hop_length`` samples: the product of the ``downsampling_ratios``."""

    sampling_rate: int = 24000
    channel_axis: bool = True

    def hop(self, config: Any) -> int:
        return config.acoustic_tokenizer_encoder_config.hop_length


@register
class VibeVoiceAsrAdapter(FamilyAdapter):
    model_types = ("vibevoice_asr",)
    encoder_attributes = ("acoustic_tokenizer_encoder", "semantic_tokenizer_encoder", "multi_modal_projector")
    required_fields = ("text_config.hidden_size",)
    items = {"audio": HopLatents()}
    look_alikes = ("acoustic_tokenizer_encoder_config.hidden_size", "semantic_tokenizer_encoder_config.hidden_size")
