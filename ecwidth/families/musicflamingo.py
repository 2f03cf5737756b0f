"""Music Flamingo (``musicflamingo``): Audio Flamingo 3's tower and projector, with rotary time embeddings between.

No engine path ships it: its ``get_audio_features`` takes the prompt's
``input_ids`` (it reads each clip's windows from the runs of audio
placeholders to time-stamp the rows). We measure what transformers' model
feeds its LM: the Audio Flamingo 3 encoder, the rotary time embedding over
its rows (which keeps their width), then ``multi_modal_projector`` to the
text width, the rows the mask covers.

Items are Audio Flamingo 3's (a window of ``L`` real frames yields
``((L - 1) // 2 + 1 - 2) // 2 + 1`` tokens, 750 a full window), plus the
``input_ids`` the feature method reads: one run of ``audio_token_id`` as long
as the clip's tokens. The profile clip is the processor's ``max_audio_len``
(1200 s, 40 windows), the clip a native class's dummy builder would make.
"""

from __future__ import annotations

from dataclasses import dataclass

from ecwidth.families._whisper_audio import PooledWindows
from ecwidth.families.adapter import register
from ecwidth.families.audioflamingo3 import AudioFlamingo3Adapter

#: ``MusicFlamingoProcessor.max_audio_len``: the longest clip the processor keeps.
MAX_AUDIO_SECONDS = 1200


@dataclass(frozen=True)
class PlaceholderWindows(PooledWindows):
    """Pooled Whisper windows and the prompt's run of audio placeholders, one per token the clip yields."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        item = super().make(config, modality, size, max_tokens=max_tokens, dtype=dtype, device=device)
        tokens = sum(self.window_tokens(config, int(real)) for real in item[self.mask_key].sum(-1))
        item["input_ids"] = torch.full((1, tokens), config.audio_token_id, device=device)
        return item


@register
class MusicFlamingoAdapter(AudioFlamingo3Adapter):
    model_types = ("musicflamingo",)
    required_fields = ("text_config.hidden_size", "audio_config.hidden_size")
    items = {"audio": PlaceholderWindows(min_frames=3, profile_seconds=MAX_AUDIO_SECONDS)}
    look_alikes = ("audio_config.hidden_size",)
