"""Inkling: an hMLP patch encoder and a dMel embedding-bag audio tower, each straight to ``decoder_dmodel``.

The engine reads the checkpoint's own schema with its own config class, and
builds a tower only where its ``decoder_dmodel`` is set; each tower ends in
that width. transformers differs: ``InklingConfig.__post_init__`` overwrites
both towers' ``text_hidden_size`` with the text ``hidden_size`` and ignores
``decoder_dmodel``, so ``InklingModel``'s towers end in the text width. The
published checkpoint has them equal; where a config does not, the engine
ships ``decoder_dmodel``, so ecwidth builds transformers' towers at
``decoder_dmodel`` (``construct``) and measures that. Because the engine reads
the raw file, a field the file leaves out is missing whatever transformers'
class would default it to (``missing_fields``).

The image tower's layers follow a scale plan (one step per prime factor of
the patch and temporal patch sizes, plus the input). Where ``n_layers`` is
smaller than the plan, transformers assigns layers to steps with
``scipy.optimize.linear_sum_assignment`` (the engine has its own); without
scipy such a config is refused in one line, saying so.

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

from ecwidth.errors import ConfigError
from ecwidth.families.adapter import FamilyAdapter, FieldWidth, lookup, register
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
    width_fields = {
        "image": FieldWidth("vision_config.decoder_dmodel"),
        "audio": FieldWidth("audio_config.decoder_dmodel"),
    }
    # transformers sets both towers' text_hidden_size to the text width, which is not what the engine ships.
    look_alikes = ("text_config.hidden_size", "vision_config.text_hidden_size", "audio_config.text_hidden_size")

    def required_paths(self, raw: Any) -> tuple[str, ...]:
        """A tower section the config carries needs its ``decoder_dmodel``: without it the engine drops the
        tower while transformers builds one at the text width."""
        present = [section for section in _TOWERS.values() if isinstance(lookup(raw, section), dict)]
        return tuple(f"{section}.decoder_dmodel" for section in present) or ("vision_config.decoder_dmodel",)

    def missing_fields(self, raw: Any) -> list[str]:
        """The file alone decides: the engine reads it with its own config class, not transformers'."""
        return [path for path in self.required_paths(raw) if lookup(raw, path) is None]

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        return tuple(modality for modality in _TOWERS if decoder_dmodel(config, modality) is not None)

    def construct(self, config: Any, dtype: Any) -> Any:
        """Build transformers' towers at ``decoder_dmodel``, the width the engine's towers end in.

        Raises:
            ConfigError: The image tower has fewer layers than its scale plan and scipy, which transformers
                then plans it with, is not installed.
        """
        config = copy.deepcopy(config)
        for modality, section in _TOWERS.items():
            width = decoder_dmodel(config, modality)
            if width is not None:
                getattr(config, section).text_hidden_size = int(width)
        try:
            return super().construct(config, dtype)
        except ModuleNotFoundError as error:
            if (error.name or "").partition(".")[0] != "scipy":
                raise
            vision = config.vision_config
            raise ConfigError(
                f"inkling_mm_model: this config's image tower has {vision.num_hidden_layers} layers, fewer than "
                f"its scale plan for patch {vision.patch_size} x temporal {vision.temporal_patch_size}, and "
                "transformers' InklingVisionModel plans such a tower with scipy.optimize.linear_sum_assignment; "
                "install scipy (pip install scipy) to measure it"
            ) from error

    def encoder_paths(self, model: Any) -> tuple[str, ...]:
        towers = {"image": "vision_tower", "audio": "audio_tower"}
        return tuple(towers[modality] for modality in self.config_modalities(model.config))
