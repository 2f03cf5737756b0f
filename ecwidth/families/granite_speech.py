"""Granite Speech (and Speech Plus): a conformer CTC encoder, then a windowed Q-Former projector into the LM.

A clip ships the ``projector`` output: the encoder's frames in blocks of
``window_size``, each block read by ``window_size // downsample_rate``
Q-Former queries, then ``projector.linear`` to the text width. Speech Plus
concatenates the ``cat_hidden_layers`` outputs with the final one: that
widens only the Q-Former's input (``projector_config.encoder_hidden_size``),
not what is shipped. transformers' ``get_audio_features`` returns the same
projector output as ``pooler_output``: the default ``pack``.

Input: ``[1, encoder frames, encoder_config.input_dim]``, each encoder frame
two stacked 80-bin mel frames. Tokens: a clip of ``n`` samples has
``(n // 160 + 1) // 2`` encoder frames and
``ceil(frames / window_size) × (window_size // downsample_rate)`` tokens;
the minimal item is one encoder frame (one block: 3 tokens at the published
15 / 5). vLLM's dummy builder makes its ``get_max_audio_len`` = 8,000,000
samples (500 s): 25000 frames, 5001 tokens.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import ItemKind, ItemSize

#: ``GraniteSpeechProcessingInfo.get_max_audio_len``: samples of the clip vLLM profiles.
PROFILE_SAMPLES = 8_000_000
HOP = 160


def encoder_frames(samples: int) -> int:
    """Encoder frames of a clip: mel frames (hop 160, centred), two to a frame."""
    return (samples // HOP + 1) // 2


class ConformerFrames(ItemKind):
    """Stacked mel frames ``[1, frames, input_dim]``, counted in Q-Former blocks."""

    counts_tokens: ClassVar[bool] = True

    def per_block(self, config: Any) -> int:
        return config.window_size // config.downsample_rate

    def frame_tokens(self, config: Any, frames: int) -> int:
        return math.ceil(frames / config.window_size) * self.per_block(config)

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        frames = 1 if size == "minimal" else encoder_frames(PROFILE_SAMPLES)
        if max_tokens is not None and self.frame_tokens(config, frames) > max_tokens:
            frames = max(1, max_tokens // self.per_block(config)) * config.window_size
        return {"input_features": torch.randn(1, frames, config.encoder_config.input_dim, dtype=dtype, device=device)}

    def tokens(self, config: Any, item: ItemSize) -> int:
        return self.frame_tokens(config, encoder_frames(round(item.seconds * 16000)))

    def profile_tokens(self, config: Any, modality: str) -> int:
        return self.frame_tokens(config, encoder_frames(PROFILE_SAMPLES))


@register
class GraniteSpeechAdapter(FamilyAdapter):
    model_types = ("granite_speech",)
    required_fields = ("text_config.hidden_size",)
    items = {"audio": ConformerFrames()}
    look_alikes = (
        "projector_config.hidden_size",
        "projector_config.encoder_hidden_size",
        "encoder_config.hidden_dim",
        "encoder_config.output_dim",
    )


@register
class GraniteSpeechPlusAdapter(GraniteSpeechAdapter):
    model_types = ("granite_speech_plus",)
