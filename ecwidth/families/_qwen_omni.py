"""What the Qwen omni thinkers (Qwen2.5-Omni, Qwen3-Omni) share.

The engine serves the thinker: it takes every multimodal input, while the
talker and the vocoder only make speech. We build the thinker's inner model
from ``thinker_config`` and never the talker. The built model's config is the
thinker config, so each family also registers the thinker's own
``model_type`` (which lets a thinker-only config.json through as well), as a
subclass whose width fields sit at the top of the config rather than under
``thinker_config`` (``bare_thinker``). No release serves a bare thinker
config (each registry says why: vLLM hands its architecture to a Transformers
backend its transformers pin cannot build, SGLang does not whitelist it), so
it is measured at the width the whole config ships, and answered as unserved.

Both thinkers take images and videos as Qwen-VL flattened patches whose size
Qwen2-VL's processors set per image or per frame, and audio as a log-mel
spectrogram from Whisper's feature extractor (16 kHz, hop 160: 100 frames a
second). The vision and audio towers each ship their own width.

Profile items: the image with the most tokens in the image budget, as vLLM
profiles it; for video, one temporal patch (two frames) of the largest frame
the processor's default video size allows (how many frames vLLM profiles
depends on its maximum sequence length, which a config cannot see); for audio
the 30 s clip vLLM profiles (``min(chunk_length, 30)`` seconds).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ecwidth.families.adapter import FamilyAdapter, FieldWidth
from ecwidth.families.items import MelFrames
from ecwidth.families.packing import pack_deepstack
from ecwidth.families.patch_grid import PatchGrid

if TYPE_CHECKING:
    import torch
    from torch import nn

PROFILE_AUDIO_SECONDS = 30
#: The audio width both Qwen Omni thinkers ship: the audio tower's projection to ``output_dim``.
THINKER_AUDIO = FieldWidth("thinker_config.audio_config.output_dim")
THINKER = "thinker_config."


def thinker_config(config: Any) -> Any:
    """The thinker's config, given the whole omni config or the thinker's own."""
    return getattr(config, "thinker_config", config)


def bare_thinker(fields: Mapping[str, FieldWidth]) -> dict[str, FieldWidth]:
    """The whole omni config's width fields as a bare thinker config has them: at its top."""
    return {
        modality: FieldWidth(rule.field.removeprefix(THINKER), rule.deepstack.removeprefix(THINKER))
        for modality, rule in fields.items()
    }


def bare_thinker_paths(paths: tuple[str, ...]) -> tuple[str, ...]:
    """Dotted paths of the whole omni config as a bare thinker config has them."""
    return tuple(path.removeprefix(THINKER) for path in paths)


@dataclass(frozen=True)
class ThinkerPatches(PatchGrid):
    """Patches for the thinker's vision tower; ``pixels`` bounds one image, or one video frame."""

    def vision(self, config: Any) -> Any:
        return thinker_config(config).vision_config


@dataclass(frozen=True)
class ThinkerMel(MelFrames):
    """Mel frames for the thinker's audio tower, counted by the family's ``audio_tokens``."""

    audio_tokens: Any = None

    def audio(self, config: Any) -> Any:
        return thinker_config(config).audio_config

    def clip_tokens(self, config: Any, frames: int) -> int:
        return self.audio_tokens(config, frames)


class QwenOmniThinkerAdapter(FamilyAdapter):
    """Image, video and audio through an omni thinker; subclasses set their items and fields."""

    encoder_attributes = ("visual", "audio_tower")
    transformers_since = "5.21.0"  # the thinkers' model classes are exported from 5.21 on
    #: What both thinkers cannot do without (Qwen3-Omni adds its DeepStack indexes).
    required_fields = (
        "thinker_config.vision_config.out_hidden_size",
        "thinker_config.audio_config.output_dim",
        "thinker_config.text_config.hidden_size",
    )
    look_alikes = (
        "thinker_config.vision_config.hidden_size",
        "thinker_config.audio_config.d_model",
        "thinker_config.text_config.hidden_size",
    )

    def required_paths(self, raw: Mapping[str, Any]) -> tuple[str, ...]:
        """``required_fields`` name paths in the whole omni config; a thinker-only config has them at its top."""
        if "thinker_config" in raw:
            return self.required_fields
        return bare_thinker_paths(self.required_fields)

    def construct(self, config: Any, dtype: torch.dtype) -> nn.Module:
        import transformers

        return getattr(transformers, self.model_class)._from_config(thinker_config(config), dtype=dtype)

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        return ("image", "video", "audio")

    def lm_hidden_size(self, config: Any) -> int:
        return int(thinker_config(config).text_config.hidden_size)

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        if modality == "audio":  # one flat tensor of every clip's rows; this is one clip
            return model.get_audio_features(**item).last_hidden_state
        pixels, grid = item.values()
        return pack_deepstack(model.visual(pixels, grid_thw=grid))
