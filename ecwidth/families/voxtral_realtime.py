"""Voxtral-Realtime (``voxtral_realtime``): transformers' port feeds the LM its projector's output, the text width.

vLLM's class serves only the Mistral-format checkpoint (``params.json``,
remapped by ``transformers_utils/configs/mistral.py``, which sets
``block_pool_size`` to the downsample factor for a causal encoder), and it
ships something else: its ``embed_multimodal`` runs only the Whisper
convolutions and ships their rows pooled ``block_pool_size`` at a time; the
causal encoder layers and the audio-language adapter run later, in
``forward``. **The two widths differ**: ecwidth measures and predicts what
transformers' ``VoxtralRealtimeModel.get_audio_features`` feeds the LM (the
causal conv embedder, the causal encoder, the rows merged
``downsample_factor`` at a time, then ``multi_modal_projector`` to the text
width), which is what the Transformers backend would ship for transformers'
format.

Items: a log-mel spectrogram ``[1, mel bins, frames]`` of whole tokens
(``2 × downsample_factor`` frames each, 80 ms); one token is the minimal item.
The profile clip is 30 s (375 tokens), the Whisper window. No token rule: the
processor's counts follow mistral_common's audio encoder.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import MEL_FRAMES_PER_SECOND, ItemKind

#: The clip profiled: one 30 s Whisper window.
PROFILE_SECONDS = 30


def frames_per_token(config: Any) -> int:
    """Mel frames one token takes: the embedder's stride 2, then ``downsample_factor`` rows merged."""
    return 2 * config.downsample_factor


class WholeTokenMel(ItemKind):
    """Mel frames, a whole number of tokens' worth."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        per_token = frames_per_token(config)
        tokens = 1 if size == "minimal" else PROFILE_SECONDS * MEL_FRAMES_PER_SECOND // per_token
        if max_tokens is not None:
            tokens = min(tokens, max_tokens)
        mel_bins = config.audio_config.num_mel_bins
        return {"input_features": torch.randn(1, mel_bins, tokens * per_token, dtype=dtype, device=device)}


@register
class VoxtralRealtimeAdapter(FamilyAdapter):
    model_types = ("voxtral_realtime",)
    encoder_attributes = ("audio_tower", "multi_modal_projector")
    required_fields = ("text_config.hidden_size", "audio_config.hidden_size", "downsample_factor")
    items = {"audio": WholeTokenMel()}
    look_alikes = ("audio_config.hidden_size",)
