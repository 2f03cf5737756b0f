"""Audio Flamingo 3: the Whisper tower, 2× average pooling, then a two-layer projector into the LM.

A clip ships the projector's rows of every 30 s window its mask covers,
concatenated; transformers' ``get_audio_features`` runs the same steps and
returns those rows as ``pooler_output``: the default ``pack``.

A window of ``L`` real frames yields ``((L - 1) // 2 + 1 - 2) // 2 + 1``
tokens (750 a full window); the processor (and vLLM's dummy builder, which
makes a ``max_audio_len`` = 600 s clip) caps a clip at 20 windows. The tower
takes only full 3000-frame windows (its position table is added whole) and
masks the padding out of attention, so ``encode`` runs the layers over the
real rows only: the same rows, and a one-token item costs two rows of layer
compute instead of 1500.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ecwidth.families._whisper_audio import PooledWindows, conv_rows, first_rows
from ecwidth.families.adapter import FamilyAdapter, register, rows

if TYPE_CHECKING:
    import torch
    from torch import nn

#: ``AudioFlamingo3Processor.max_audio_len``: the clip vLLM's dummy builder makes.
MAX_AUDIO_SECONDS = 600


@register
class AudioFlamingo3Adapter(FamilyAdapter):
    model_types = ("audioflamingo3",)
    encoder_attributes = ("audio_tower", "multi_modal_projector")
    required_fields = ("text_config.hidden_size",)
    items = {"audio": PooledWindows(min_frames=3, profile_seconds=MAX_AUDIO_SECONDS)}
    look_alikes = ("audio_config.hidden_size",)

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        real = conv_rows(int(item["input_features_mask"].sum(-1).max()))
        with first_rows(model.audio_tower.layers, real):
            return rows(model.get_audio_features(**item).pooler_output)
