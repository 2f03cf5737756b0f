"""Inkling: an hMLP patch encoder and a dMel embedding-bag audio tower, each straight to ``decoder_dmodel``.

vLLM 0.32 serves ``inkling_mm_model`` with its own config classes
(``InklingMMConfig`` in ``vllm/models/inkling/configs.py``, registered for the
model_type in ``vllm/transformers_utils/config.py``) and
``InklingForConditionalGeneration`` (``vllm/models/inkling/nvidia/model.py``,
towers in ``common/towers.py``). Its ``embed_multimodal`` ships, per item:

- image: ``InklingVision`` (``HMLPPatchEncoder``): each ``[2, P, P, 3]``
  patch folded to depth by a stack of linear layers, the last one to
  ``vision_config.decoder_dmodel``; one row per patch;
- audio: ``InklingAudio``: the sum of ``n_mel_bins`` embeddings (one per
  quantized mel bin) of width ``audio_config.decoder_dmodel``; one row per
  50 ms frame.

A tower is built only where its ``decoder_dmodel`` is set
(``inkling_vision_enabled`` / ``inkling_audio_enabled`` in
``common/mm_preprocess.py``).

transformers differs: ``InklingConfig.__post_init__`` overwrites both towers'
``text_hidden_size`` with the text ``hidden_size`` and ignores
``decoder_dmodel``, so ``InklingModel``'s towers end in the text width. The
published checkpoint has them equal; where a config does not, the engine
ships ``decoder_dmodel``, so ecwidth builds transformers' towers at
``decoder_dmodel`` (``construct``) and measures that. The raw config is the
checkpoint's own schema (``decoder_dmodel``, ``n_layers``, ``n_mel_bins``,
``mel_vocab_size``, ...), which transformers also reads.

Items: the minimal image is one patch, the profile image the one vLLM's
``InklingDummyInputsBuilder`` makes: a square four patches wide, which the
image processor's default rescale (2x, long edge at most 2048) doubles, then
cuts into ``ceil(h / P)`` rows of ``w // P + 1`` patches (72 for 160²).
The minimal clip is one dMel frame, the profile clip ``MAX_AUDIO_TOKENS``
(12000) frames; the audio framing (a centred STFT) has no token rule here.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Any, ClassVar

from ecwidth.families.adapter import FamilyAdapter, lookup, register
from ecwidth.families.items import ItemKind, ItemSize

#: Frames of vLLM's dummy audio clip (``MAX_AUDIO_TOKENS`` in ``common/mm_preprocess.py``).
MAX_AUDIO_TOKENS = 12_000
#: Patches a side of vLLM's dummy image, before the processor rescales it.
DUMMY_IMAGE_PATCHES = 4
#: ``InklingImageProcessor`` defaults: long edge scaled by 2, but not upscaled past 2048 pixels.
RESCALE_FRAC, RESCALE_MAX_LONG_EDGE = 2.0, 2048
_TOWERS = {"image": "vision_config", "audio": "audio_config"}


def rescaled(height: int, width: int) -> tuple[int, int]:
    """(height, width) after the processor's default long-edge rescale (``_scaled_image_dimensions``)."""
    long_edge = max(height, width)
    target = min(long_edge * RESCALE_FRAC, float(max(RESCALE_MAX_LONG_EDGE, long_edge)))
    ratio = target / long_edge
    if ratio == 1.0:
        return height, width
    return max(1, math.floor(height * ratio + 0.5)), max(1, math.floor(width * ratio + 0.5))


def image_patches(patch: int, height: int, width: int) -> int:
    """Patches of one image: ``ceil(h / P)`` rows of ``w // P + 1`` (the patchifier pads a column)."""
    height, width = rescaled(height, width)
    return -(-height // patch) * (width // patch + 1)


@dataclass(frozen=True)
class InklingPatches(ItemKind):
    """Patches ``[n, temporal_patch_size, P, P, channels]``, one embedding each."""

    counts_tokens: ClassVar[bool] = True

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        vision = config.vision_config
        count = 1 if size == "minimal" else self.profile_tokens(config, modality)
        if max_tokens is not None:
            count = max(1, min(count, max_tokens))
        shape = (count, vision.temporal_patch_size, vision.patch_size, vision.patch_size, vision.num_channels)
        return {"pixel_values": torch.randn(*shape, dtype=dtype, device=device)}

    def tokens(self, config: Any, item: ItemSize) -> int:
        return image_patches(config.vision_config.patch_size, item.height, item.width)

    def profile_tokens(self, config: Any, modality: str) -> int:
        side = config.vision_config.patch_size * DUMMY_IMAGE_PATCHES
        return image_patches(config.vision_config.patch_size, side, side)


@dataclass(frozen=True)
class InklingDmel(ItemKind):
    """dMel bin indices ``[1, frames, n_mel_bins]`` and a mask of the real frames."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        audio = config.audio_config
        frames = 1 if size == "minimal" else MAX_AUDIO_TOKENS
        if max_tokens is not None:
            frames = max(1, min(frames, max_tokens))
        bins = torch.randint(0, audio.mel_vocab_size, (1, frames, audio.n_mel_bins), device=device)
        return {"audio_input_ids": bins, "audio_input_ids_mask": torch.ones(1, frames, dtype=torch.long, device=device)}


def decoder_dmodel(config: Any, modality: str) -> int | None:
    """The engine's width of a tower; ``None`` where the engine builds no such tower."""
    return getattr(getattr(config, _TOWERS[modality], None), "decoder_dmodel", None)


@register
class InklingAdapter(FamilyAdapter):
    model_types = ("inkling_mm_model",)
    model_class = "InklingModel"
    items = {"image": InklingPatches(), "audio": InklingDmel()}
    engine = (
        "vllm InklingForConditionalGeneration (inkling/nvidia/model.py) on its own InklingMMConfig: "
        "vision_config.decoder_dmodel and audio_config.decoder_dmodel; transformers' InklingModel builds the "
        "towers at the text hidden size instead, which agrees only where the two are equal"
    )

    def required_paths(self, raw: Any) -> tuple[str, ...]:
        """A tower section the config carries needs its ``decoder_dmodel``: without it the engine drops the
        tower while transformers builds one at the text width."""
        present = [section for section in _TOWERS.values() if isinstance(lookup(raw, section), dict)]
        return tuple(f"{section}.decoder_dmodel" for section in present) or ("vision_config.decoder_dmodel",)

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        return tuple(modality for modality in _TOWERS if decoder_dmodel(config, modality) is not None)

    def predict(self, config: Any) -> dict[str, int]:
        return {modality: int(decoder_dmodel(config, modality)) for modality in self.config_modalities(config)}

    def construct(self, config: Any, dtype: Any) -> Any:
        """Build transformers' towers at ``decoder_dmodel``, the width the engine's towers end in."""
        config = copy.deepcopy(config)
        for modality, section in _TOWERS.items():
            width = decoder_dmodel(config, modality)
            if width is not None:
                getattr(config, section).text_hidden_size = int(width)
        return super().construct(config, dtype)

    def encoder_paths(self, model: Any) -> tuple[str, ...]:
        towers = {"image": "vision_tower", "audio": "audio_tower"}
        return tuple(towers[modality] for modality in self.config_modalities(model.config))
