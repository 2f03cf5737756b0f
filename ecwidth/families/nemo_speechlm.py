"""Nemotron 3.5 Transcribe (``nemo_speechlm``): a speech encoder and a diarization model, one linear to the text width.

``Nemotron3_5TranscribeModel.get_audio_features`` runs the audio tower (the
speech recognition encoder, ``subsampling_factor`` mel frames stacked into
one row, beside a diarization model whose speaker activity is embedded and
added), then ``multi_modal_projector`` (one linear to the text width), the
rows the mask covers: ``[ceil(frames / subsampling_factor), text hidden]``.
The projector is the last step before the LM, so a native class would ship
the same width. The word-timestamp encoder feeds a head, not the LM: it is
not the encoder here.

Items: a log-mel spectrogram ``[1, frames, mel bins]`` (frames first), padded
to a multiple of ``subsampling_factor`` frames with its mask of real frames, as
the processor pads it; one real frame is the minimal item (one row). The
feature extractor's centred STFT gives ``1 + samples // 160`` frames at
16 kHz; it has no ``chunk_length``, so the backend profiles 30 s: 3001
frames, 376 rows at the published factor 8.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import MelFrames

#: ``NemotronAsrStreamingFeatureExtractor``: 16 kHz audio, a frame every 160 samples.
SAMPLING_RATE, HOP_LENGTH = 16000, 160


def stft_frames(seconds: float) -> int:
    """Mel frames of a clip through the feature extractor's centred STFT."""
    return 1 + int(seconds * SAMPLING_RATE) // HOP_LENGTH


@dataclass(frozen=True)
class StackedFrames(MelFrames):
    """Mel frames first, padded to whole stacks of ``subsampling_factor``; one row a stack begun."""

    mask_key: str | None = "input_features_mask"

    def mel_bins(self, config: Any) -> int:
        return config.audio_config.asr_config.num_mel_bins

    def stack(self, config: Any) -> int:
        return config.audio_config.subsampling_factor

    def clip_tokens(self, config: Any, frames: int) -> int:
        return math.ceil(frames / self.stack(config))

    def profile_frames(self, config: Any) -> int:
        return stft_frames(self.profile_seconds)

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        real = self.frames(config, size, max_tokens)
        total = self.clip_tokens(config, real) * self.stack(config)
        return {
            self.features_key: torch.randn(1, total, self.mel_bins(config), dtype=dtype, device=device),
            self.mask_key: (torch.arange(total, device=device) < real).long()[None],
        }

    def tokens(self, config: Any, item: Any) -> int:
        return self.clip_tokens(config, stft_frames(item.seconds))


@register
class NemoSpeechLMAdapter(FamilyAdapter):
    model_types = ("nemo_speechlm",)
    transformers_since = "5.22.0"
    encoder_attributes = ("audio_tower", "multi_modal_projector")
    required_fields = ("text_config.hidden_size",)
    items = {"audio": StackedFrames()}
    look_alikes = (
        "audio_config.hidden_size",
        "audio_config.asr_config.hidden_size",
        "audio_config.diarization_config.audio_config.hidden_size",
    )
