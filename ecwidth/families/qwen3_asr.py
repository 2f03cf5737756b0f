"""Qwen3-ASR: the Qwen3-Omni audio tower and its two-layer output projection, ``audio_config.output_dim`` wide.

The LM's hidden size is not read; ``output_dim`` equals it only in the
published configs (its class default, 3584, does not). transformers' port has
``audio_config`` and ``text_config`` at the top where the original checkpoint
nests them in ``thinker_config``, and moves the tower's ``proj1``/``proj2``
into ``multi_modal_projector.linear_1``/``linear_2``; vLLM's own
``Qwen3ASRConfig`` wraps the top-level fields into a thinker config and its
weight mapper maps the projector back, so it takes both schemas. We measure
``get_audio_features``' ``pooler_output``, the projector's output: the same
width as the engine's ``proj2``.

The tower convolves chunks of ``2 × n_window`` (100) mel frames: a chunk
yields 13 tokens (three stride-2 convolutions), the tail its own share; one
mel frame yields one token, the minimal item. vLLM's dummy builder makes a
``min(chunk_length, 30)`` = 30 s clip: 390 tokens.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register
from ecwidth.families.items import MelFrames


def _halve_thrice(length: int) -> int:
    for _ in range(3):
        length = (length - 1) // 2 + 1 if length > 0 else 0
    return length


@dataclass(frozen=True)
class ChunkedMel(MelFrames):
    """One row of mel frames padded to whole ``2 × n_window`` chunks, and its mask."""

    mask_key: str | None = "input_features_mask"

    def chunk(self, config: Any) -> int:
        return 2 * self.audio(config).n_window

    def clip_tokens(self, config: Any, frames: int) -> int:
        chunk = self.chunk(config)
        return frames // chunk * _halve_thrice(chunk) + _halve_thrice(frames % chunk)

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        real = self.frames(config, size, max_tokens)
        total = math.ceil(real / self.chunk(config)) * self.chunk(config)
        return {
            self.features_key: torch.randn(1, self.mel_bins(config), total, dtype=dtype, device=device),
            self.mask_key: (torch.arange(total, device=device) < real).long()[None],
        }


@register
class Qwen3ASRAdapter(FamilyAdapter):
    model_types = ("qwen3_asr",)
    encoder_attributes = ("audio_tower", "multi_modal_projector")
    required_fields = ("audio_config.output_dim", "audio_config.n_window")
    items = {"audio": ChunkedMel(min_frames=1, profile_seconds=30)}
    width_fields = {"audio": FieldWidth("audio_config.output_dim")}
    look_alikes = ("audio_config.d_model", "text_config.hidden_size")
