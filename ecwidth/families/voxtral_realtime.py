"""Voxtral-Realtime (``voxtral_realtime``): two checkpoint formats, two widths.

vLLM's own class, ``VoxtralRealtimeGeneration`` (``voxtral_realtime.py``),
serves the Mistral-format checkpoint (``params.json``, which
``transformers_utils/configs/mistral.py:_remap_mistral_audio_args`` turns into
that architecture, ``block_pool_size`` set to the downsample factor for a
causal encoder). Its ``embed_multimodal`` runs only the Whisper convolutions
(``forward_conv``) and ships their rows pooled ``block_pool_size`` at a time:
``audio_config.hidden_size × downsample_factor`` wide. The causal encoder
layers and the audio-language adapter run later, in ``forward``, on the
unpooled rows. ecwidth runs the same two convolutions, transformers'
``VoxtralRealtimeEmbedder``, and pools their rows as vLLM does.

vLLM's registry names no ``VoxtralRealtimeForConditionalGeneration``, so the
Hugging Face-format checkpoint goes to the Transformers backend, which ships
what ``VoxtralRealtimeModel.get_audio_features`` feeds the LM: the causal
encoder, rows merged ``downsample_factor`` at a time, ``multi_modal_projector``
to the text width.

Items: a log-mel spectrogram ``[1, mel bins, frames]`` of whole tokens
(``2 × downsample_factor`` frames each, 80 ms: the convolutions' stride 2, then
the pool or the merge); one token is the minimal item. The profile clip is
30 s (375 tokens), the Whisper window. No token rule: the processor's counts
follow mistral_common's audio encoder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ecwidth.families.adapter import FamilyAdapter, register, rows
from ecwidth.families.items import MEL_FRAMES_PER_SECOND, ItemKind

if TYPE_CHECKING:
    import torch
    from torch import nn

#: The clip profiled: one 30 s Whisper window.
PROFILE_SECONDS = 30
#: The architecture vLLM gives a Mistral-format checkpoint: its own class, which ships the pooled conv rows.
NATIVE = "VoxtralRealtimeGeneration"


def frames_per_token(config: Any) -> int:
    """Mel frames one token takes: the convolutions' stride 2, then ``downsample_factor`` rows pooled or merged."""
    return 2 * config.downsample_factor


def ships_pooled_conv_rows(config: Any) -> bool:
    """Whether the config is the Mistral-format checkpoint vLLM's own class serves (its architecture named)."""
    return (getattr(config, "architectures", None) or [None])[0] == NATIVE


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

    def predict(self, config: Any) -> dict[str, int]:
        if ships_pooled_conv_rows(config):
            return {"audio": config.audio_config.hidden_size * config.downsample_factor}
        return super().predict(config)

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        if not ships_pooled_conv_rows(model.config):
            return super().encode(model, modality, item)
        conv_rows = rows(model.audio_tower.embedder(item["input_features"]))
        pool = model.config.downsample_factor
        return conv_rows.reshape(conv_rows.shape[0] // pool, conv_rows.shape[1] * pool)
