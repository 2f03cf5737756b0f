"""Muse Spark (``muse_spark``): Muse Glimmer's vision path at the text width, and a waveform tower at its own.

vLLM 0.32 has no class for it; the Transformers backend
(``vllm/model_executor/models/transformers/multimodal.py``; whether the class
passes the backend's gate is not verified) ships the ``pooler_output`` of
``MuseSparkModel.get_<modality>_features``:

- ``image`` and ``video``: Muse Glimmer's path, the vision tower (pixel shuffle to
  ``out_hidden_size``), ``vision_adapter`` (to ``projector_hidden_size``),
  ``vision_projection`` to ``text_config.hidden_size`` and
  ``perception_emb_norm``: ``[merged tokens, text hidden]``. Not the width:
  ``out_hidden_size`` or ``projector_hidden_size``.
- ``audio``: the 24 kHz waveform through the audio tower's conv stages
  (``prod(patch_sizes)`` = 1920 samples a token), its ``proj`` to
  ``audio_config.out_hidden_size`` and norm, then the LM embedding's
  ``embed_norm`` (an RMSNorm with no weights, so zeros stand in for nothing):
  ``[ceil(samples / 1920), audio_config.out_hidden_size]``. No projector
  follows; ``MuseSparkConfig`` requires ``audio_config.out_hidden_size`` to
  equal ``text_config.hidden_size`` (the rows are scattered onto the text
  embeddings), so every modality ships the text width.

The model class declares only ``image`` and ``video`` in ``input_modalities``
although it has ``get_audio_features`` and the processor takes audio, which
is what the backend goes by; audio is measured wherever ``audio_config`` is set.

Items: images and videos are Muse Glimmer's (the same processors); audio is
a waveform ``[1, samples]`` padded to whole tokens, as ``MuseSparkFeatureExtractor``
pads it, with its ``input_values_mask``; one sample is the minimal clip. The
feature extractor has no ``chunk_length``, so the backend profiles 30 s: 375 tokens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecwidth.families._backend import BACKEND
from ecwidth.families.adapter import register
from ecwidth.families.items import HopWaveform
from ecwidth.families.muse_glimmer import MuseGlimmerAdapter


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
    engine = (
        f"{BACKEND}: image and video text_config.hidden_size via vision_projection; "
        "audio audio_config.out_hidden_size (= text_config.hidden_size), the audio tower's proj"
    )
    items = {**MuseGlimmerAdapter.items, "audio": AudioPatches()}

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        vision = super().config_modalities(config)
        return (*vision, "audio") if config.audio_config is not None else vision
