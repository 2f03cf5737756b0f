"""Voxtral: a Whisper tower, 4 rows merged into one, then the audio-language adapter into the LM.

vLLM's class reads the Mistral-format checkpoint (``params.json``,
``audio_config.downsample_factor``, ``--tokenizer-mode mistral``), not
transformers' ``voxtral`` config: its Whisper rows are merged
``downsample_factor`` (4) at a time into ``d_model × 4`` channels and go
through the adapter (``w_in``, GELU, ``w_out``) to the text width. We
measure what transformers' model feeds the LM: ``get_audio_features`` merges
the rows by ``audio_config.intermediate_size`` (4 × d_model) and projects them
with ``multi_modal_projector`` (``linear_1``, ``linear_2``) to the same width.

The tower takes only full 3000-frame windows and masks nothing: 375 tokens
a window, whatever the clip's length. ``encode`` runs the layers over the
rows that are kept (4 for the minimal one-token item, ``4 × max_tokens``
for a capped profile item) instead of 1500: the values of those rows
change, their width cannot. vLLM profiles as many tokens of audio as the
maximum model length, which a config cannot see; the profile item takes
``text_config.max_position_embeddings`` tokens' worth of windows. No token
rule: vLLM's counts follow mistral_common's audio encoder.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ecwidth.families._whisper_audio import first_rows
from ecwidth.families.adapter import FamilyAdapter, register, rows
from ecwidth.families.items import ItemKind

if TYPE_CHECKING:
    import torch
    from torch import nn


def merge(config: Any) -> int:
    """Tower rows to one token: ``intermediate_size // hidden_size`` (4)."""
    return config.audio_config.intermediate_size // config.audio_config.hidden_size


def window_tokens(config: Any) -> int:
    return config.audio_config.max_source_positions // merge(config)


class VoxtralWindows(ItemKind):
    """Full mel windows ``[windows, mel bins, 2 × max_source_positions]``; ``rows`` says how many tower rows to keep."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        audio = config.audio_config
        per_window = window_tokens(config)
        tokens = 1 if size == "minimal" else config.text_config.max_position_embeddings
        if max_tokens is not None:
            tokens = min(tokens, max_tokens)
        windows = math.ceil(tokens / per_window)
        kept = tokens * merge(config) if windows == 1 else audio.max_source_positions
        frames = 2 * audio.max_source_positions
        features = torch.randn(windows, audio.num_mel_bins, frames, dtype=dtype, device=device)
        return {"input_features": features, "rows": kept}


@register
class VoxtralAdapter(FamilyAdapter):
    model_types = ("voxtral",)
    encoder_attributes = ("audio_tower", "multi_modal_projector")
    required_fields = ("text_config.hidden_size", "audio_config.intermediate_size")
    items = {"audio": VoxtralWindows()}
    look_alikes = ("audio_config.hidden_size", "audio_config.intermediate_size")

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        item = dict(item)
        kept = item.pop("rows")
        with first_rows(model.audio_tower.layers, kept):
            return rows(model.get_audio_features(**item).pooler_output)
