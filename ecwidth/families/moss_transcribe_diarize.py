"""MOSS-Transcribe-Diarize: a Whisper tower, 4 rows merged into one, then the VQ adaptor into the LM.

Per clip, each 30 s window's rows (rounded up to whole merge groups) are
merged ``audio_merge_size`` (4) at a time into ``adaptor_input_dim`` channels,
then the VQ adaptor (linear, SiLU, linear, LayerNorm) takes them to the text
width. transformers' ``get_audio_features`` does the same
(``multi_modal_projector``) and returns it as ``pooler_output``: the default
``pack``.

A window of ``L`` real frames yields ``ceil(((L - 1) // 2 + 1) / 4)`` tokens
(375 a full window); vLLM's dummy builder makes a 90-minute clip
(``MAX_AUDIO_DURATION_S``): 180 windows. The tower takes only full
3000-frame windows and masks nothing, so ``encode`` runs its layers over the
rows that are kept (4 for a one-token item) instead of 1500: the values of
those rows change, their width cannot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ecwidth.families._whisper_audio import WindowedMel, conv_rows, first_rows
from ecwidth.families.adapter import FamilyAdapter, register, rows

if TYPE_CHECKING:
    import torch
    from torch import nn

#: vLLM's ``MAX_AUDIO_DURATION_S``: the clip its dummy builder makes.
MAX_AUDIO_SECONDS = 90 * 60


@dataclass(frozen=True)
class MergedWindows(WindowedMel):
    """Whisper windows whose conv rows are merged ``audio_merge_size`` at a time, the last group zero-padded."""

    def window_tokens(self, config: Any, frames: int) -> int:
        return math.ceil(conv_rows(frames) / config.audio_merge_size)


@register
class MossTranscribeDiarizeAdapter(FamilyAdapter):
    model_types = ("moss_transcribe_diarize",)
    transformers_since = "5.20.0"
    encoder_attributes = ("audio_tower", "multi_modal_projector")
    required_fields = ("text_config.hidden_size",)
    items = {"audio": MergedWindows(min_frames=1, profile_seconds=MAX_AUDIO_SECONDS)}
    look_alikes = ("audio_config.hidden_size", "adaptor_input_dim")

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        import torch

        merge = model.config.audio_merge_size
        kept = math.ceil(conv_rows(int(item["input_features_mask"].sum(-1).max())) / merge) * merge
        padding_mask = torch.ones(1, 1, dtype=torch.long)  # only for the chunk mapping, which one clip does not need
        with first_rows(model.audio_tower.layers, kept):
            return rows(model.get_audio_features(**item, padding_mask=padding_mask).pooler_output)
