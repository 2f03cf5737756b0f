"""GLM-ASR: a rotary Whisper-style tower, 4 rows merged into one, then a two-layer projector into the LM.

A clip ships the tower's rows merged ``intermediate_size // hidden_size`` (4)
at a time, through ``multi_modal_projector`` (to ``2 × text hidden``, then to
the text width), keeping the rows each 30 s window's mask covers.
transformers' ``get_audio_features`` does the same and returns the kept rows
as ``pooler_output`` (the default ``pack``); it reshapes by
``intermediate_size`` without vLLM's truncation to a whole merge group, so it
needs conv rows in multiples of 4, which full windows and the minimal item
have.

A window of ``L`` real frames yields ``((L - 1) // 2 + 1 - 4) // 4 + 1``
tokens (375 a full window); vLLM's dummy builder makes a ``max_audio_len``
= 655 s clip, which its processor cuts to 21 windows. The feature extractor
pads every window to 3000 frames, but the tower masks nothing and takes any
length, so the minimal item is just the 7 frames of one token.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecwidth.families._whisper_audio import WINDOW_FRAMES, WindowedMel, conv_rows
from ecwidth.families.adapter import FamilyAdapter, register

#: ``GlmAsrProcessor.max_audio_len``: the clip vLLM's dummy builder makes.
MAX_AUDIO_SECONDS = 655
MERGE = 4


@dataclass(frozen=True)
class MergedWindows(WindowedMel):
    """Whisper windows whose conv rows are merged ``MERGE`` at a time."""

    def window_frames(self, config: Any) -> int:
        return WINDOW_FRAMES  # the feature extractor's 30 s; the rotary tower has no window of its own

    def window_tokens(self, config: Any, frames: int) -> int:
        return max(0, (conv_rows(frames) - MERGE) // MERGE + 1)


@register
class GlmAsrAdapter(FamilyAdapter):
    model_types = ("glmasr",)
    encoder_attributes = ("audio_tower", "multi_modal_projector")
    required_fields = ("text_config.hidden_size",)
    items = {"audio": MergedWindows(min_frames=7, profile_seconds=MAX_AUDIO_SECONDS, pad_minimal=False)}
    look_alikes = ("audio_config.intermediate_size", "audio_config.hidden_size")
