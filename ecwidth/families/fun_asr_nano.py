"""Fun-ASR-Nano (``fun_asr_nano``): the adaptor's output, ``adaptor_config.hidden_size`` (the text width) wide.

transformers' port runs the SenseVoice-style encoder over LFR-stacked fbank
rows (``num_mel_bins × num_stacked_frames`` = 560 wide in), then
``FunAsrNanoMultiModalProjector`` (two linears, then the adaptor's
transformer layers at ``adaptor_config.hidden_size``), the rows the mask
covers. ``FunAsrNanoConfig`` requires ``adaptor_config.hidden_size`` to equal
``text_config.hidden_size``.

vLLM's native ``FunASRForConditionalGeneration`` (``funasr.py``) serves only
the original checkpoint (a ``Qwen3Config`` with ``audio_encoder_conf``, not
this schema), so the port goes through the Transformers backend; the native
class's adaptor width is hard-coded, ``llm_dim=1024``, whatever the config
says, and agrees with the port only where the text hidden size is 1024, as in
the published Fun-ASR-Nano.

Items: LFR rows ``[1, rows, 560]`` and their mask; the feature extractor's
Kaldi fbank gives ``1 + (samples - 400) // 160`` frames at 16 kHz, stacked
``num_stacked_frames`` at a time with stride 6, one row a stride begun. One
row is the minimal item. The feature extractor has no ``chunk_length``, so
the backend profiles 30 s: 500 rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register
from ecwidth.families.items import MelFrames

#: ``FunAsrNanoFeatureExtractor``: 16 kHz, a 25 ms window every 10 ms (Kaldi, edges snipped), LFR stride 6.
SAMPLING_RATE, WINDOW, SHIFT, LFR_STRIDE = 16000, 400, 160, 6


def fbank_frames(seconds: float) -> int:
    """Kaldi fbank frames of a clip (``snip_edges``: whole windows only)."""
    return max(0, 1 + (int(seconds * SAMPLING_RATE) - WINDOW) // SHIFT)


@dataclass(frozen=True)
class LowFrameRateRows(MelFrames):
    """LFR rows ``[1, rows, num_mel_bins × num_stacked_frames]``: fbank frames stacked, one row a stride begun."""

    mask_key: str | None = "input_features_mask"

    def clip_tokens(self, config: Any, frames: int) -> int:
        return math.ceil(frames / LFR_STRIDE)

    def profile_frames(self, config: Any) -> int:
        return fbank_frames(self.profile_seconds)

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        rows = self.clip_tokens(config, self.frames(config, size, max_tokens))
        return {
            self.features_key: torch.randn(1, rows, config.audio_config.input_size, dtype=dtype, device=device),
            self.mask_key: torch.ones(1, rows, dtype=torch.long, device=device),
        }

    def tokens(self, config: Any, item: Any) -> int:
        return self.clip_tokens(config, fbank_frames(item.seconds))


@register
class FunAsrNanoAdapter(FamilyAdapter):
    model_types = ("fun_asr_nano",)
    transformers_since = "5.17.0"
    encoder_attributes = ("audio_tower", "multi_modal_projector")
    required_fields = ("adaptor_config.hidden_size",)
    items = {"audio": LowFrameRateRows()}
    width_fields = {"audio": FieldWidth("adaptor_config.hidden_size")}
    look_alikes = ("audio_config.hidden_size", "adaptor_config.projector_hidden_size")
