"""Muse Spark (``muse_spark``): Muse Glimmer's vision path at the text width, and a waveform tower at its own.

- ``image`` and ``video``: Muse Glimmer's path, the vision tower (pixel shuffle
  to ``out_hidden_size``), the adapter (to ``projector_hidden_size``),
  ``vision_projection`` to the text width and ``perception_emb_norm``.
- ``audio``: the 24 kHz waveform through the audio tower's conv stages
  (``prod(patch_sizes)`` = 1920 samples a token), its ``proj`` to
  ``audio_config.out_hidden_size`` and norm, then the LM embedding's
  ``embed_norm`` (an RMSNorm with no weights, so zeros stand in for nothing).
  No projector follows: the rows are scattered onto the text embeddings, so
  every config class (transformers', vLLM's, SGLang's) requires
  ``audio_config.out_hidden_size`` to equal the text hidden size.

The transformers model class declares only ``image`` and ``video`` in
``input_modalities`` although it has ``get_audio_features`` and the processor
takes audio, which is what the engines go by; audio is measured wherever
``audio_config`` is set (every engine's config class requires it).

Items: images and videos are Muse Glimmer's (the same processors); audio is
a waveform ``[1, samples]`` padded to whole tokens, as ``MuseSparkFeatureExtractor``
pads it, with its ``input_values_mask``; one sample is the minimal clip. The
feature extractor has no ``chunk_length``, so the Transformers backend profiles
30 s: 375 tokens. The engine's own class profiles smaller items (448² images,
4-frame videos, 1 s of audio), at the same widths.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.items import HopWaveform
from ecwidth.families.muse_glimmer import MuseGlimmerAdapter

#: The first transformers release with ``muse_spark``'s config and model classes.
FIRST_TRANSFORMERS = "5.20.0"


@dataclass(frozen=True)
class AudioPatches(HopWaveform):
    """A 24 kHz waveform, one token each ``audio_config.samples_per_token`` samples."""

    sampling_rate: int = 24000
    mask_key: str = "input_values_mask"

    def hop(self, config: Any) -> int:
        return config.audio_config.samples_per_token


@register
class MuseSparkAdapter(MuseGlimmerAdapter):
    model_types = ("muse_spark",)
    items = {**MuseGlimmerAdapter.items, "audio": AudioPatches()}
    transformers_since = FIRST_TRANSFORMERS
    width_fields = {"audio": FieldWidth("audio_config.out_hidden_size")}

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        vision = super().config_modalities(config)
        return (*vision, "audio") if config.audio_config is not None else vision
