"""OmniASR-LLM (``omniasr``): a wav2vec2 tower and one linear to the text width.

``OmniASRModel.get_audio_features`` takes the waveform (the processor's
``input_values``) through the tower's conv feature encoder (``conv_kernel`` /
``conv_stride``, 320 samples a frame by default) and its projection, the
transformer layers, then ``multi_modal_projector`` (one linear to the text
width), the frames the ``padding_mask`` covers. The projector is the last step
before the LM, so a native class would ship the same width.

Items: a 16 kHz waveform ``[1, 1, samples]`` and its ``padding_mask``. A clip
yields one frame per step of the conv stack, ``L → (L - kernel) // stride + 1``
a layer; the minimal clip is the conv stack's receptive field (400 samples by
default), one frame. The backend profiles ``chunk_length`` seconds of audio
from the feature extractor, which has none, so 30 s: 1499 frames by default.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import Waveform


def conv_stack(config: Any) -> list[tuple[int, int]]:
    """(kernel, stride) of each layer of the tower's conv feature encoder."""
    audio = config.audio_config
    return list(zip(audio.conv_kernel, audio.conv_stride, strict=True))


@dataclass(frozen=True)
class ConvFrames(Waveform):
    """A waveform that the conv feature encoder turns into frames, one per token."""

    channel_axis: bool = True

    def minimal_samples(self, config: Any) -> int:
        samples = 1
        for kernel, stride in reversed(conv_stack(config)):
            samples = (samples - 1) * stride + kernel
        return samples

    def clip_tokens(self, config: Any, samples: int) -> int:
        for kernel, stride in conv_stack(config):
            samples = max(0, (samples - kernel) // stride + 1)
        return samples


@register
class OmniASRAdapter(FamilyAdapter):
    model_types = ("omniasr",)
    transformers_since = "5.24.0"
    encoder_attributes = ("audio_tower", "multi_modal_projector")
    required_fields = ("text_config.hidden_size", "audio_config.conv_kernel", "audio_config.conv_stride")
    items = {"audio": ConvFrames()}
    look_alikes = ("audio_config.hidden_size",)
