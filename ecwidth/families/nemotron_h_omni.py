"""Nemotron-H Omni: RADIO vision with pixel shuffle and ``mlp1``, Parakeet audio with a projection, all to the text width.

Images go through RADIO, a pixel shuffle by ``downsample_ratio`` and ``mlp1``
to the text width; audio through the Parakeet encoder and a projection to it.
A video item is the frames' ``mlp1`` output merged by
``_create_final_video_embeddings`` into the text embeddings of the frame
indicator and separator tokens, which the engine takes from the language
model's ``embed_tokens``, pruning or not. The width is still the text hidden
size, but the item cannot be built without the LM's real embedding table, so
the adapter declares video ``predicted_only``: ``predict`` answers for it,
and a measurement covers image and audio and says why video is left out.

vLLM reads the remote-code schema (``vit_hidden_size``, ``sound_config``,
``llm_config``), which transformers' ``NemotronH_Omni_Reasoning_V3_Config``
also reads (and renames to ``vision_hidden_size``, ``audio_config``,
``text_config``): ecwidth measures transformers'
``NemotronH_Omni_Reasoning_V3``, whose ``get_image_features`` and
``get_audio_features`` end in the same projections to the text width, as
the engine's. Note that transformers 5.24 drops the checkpoint's
``sound_config.model_type: parakeet`` from a copy it then discards, so such a
config fails to load there; a config must name ``parakeet_encoder`` or omit it.

Items: an image is flat RADIO patches with ``image_grid_hw``; the minimal
one is a 2×2 patch grid (one token after the 0.5 pixel shuffle), the profile
one a square tile of ``force_image_size`` (else the vision ``image_size``);
vLLM's dummy size comes from the processor's dynamic-resolution settings,
which the config alone does not give, so there is no token rule. Audio is a
log-mel clip ``[1, frames, mel bins]`` with its mask; the minimal clip is one
frame, the profile clip vLLM's ``MAX_AUDIO_LEN_S`` (10 minutes at 100 frames a
second), capped at ``subsampling_factor`` frames a token.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import MEL_FRAMES_PER_SECOND, ItemKind

#: vLLM's longest audio clip (``MAX_AUDIO_LEN_S`` in ``nano_nemotron_vl.py``): the dummy it profiles.
MAX_AUDIO_SECONDS = 10 * 60


@dataclass(frozen=True)
class RadioPatches(ItemKind):
    """One image as flat patches ``[h × w, channels × patch²]`` and its ``image_grid_hw``."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        vision = config.vision_config
        unit = round(1 / config.downsample_ratio)  # patches a side of one token
        if size == "minimal":
            side = unit
        else:
            side = max(unit, (config.force_image_size or vision.image_size) // vision.patch_size // unit * unit)
            while max_tokens is not None and side > unit and (side // unit) ** 2 > max_tokens:
                side -= unit
        patch_dim = vision.num_channels * vision.patch_size**2
        return {
            "pixel_values": torch.randn(side * side, patch_dim, dtype=dtype, device=device),
            "image_grid_hw": torch.tensor([[side, side]], device=device),
        }


@dataclass(frozen=True)
class ParakeetMel(ItemKind):
    """A log-mel clip ``[1, frames, mel bins]`` and its frame mask."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        audio = config.audio_config
        frames = 1 if size == "minimal" else MAX_AUDIO_SECONDS * MEL_FRAMES_PER_SECOND
        if max_tokens is not None:
            frames = max(1, min(frames, max_tokens * audio.subsampling_factor))
        return {
            "input_features": torch.randn(1, frames, audio.num_mel_bins, dtype=dtype, device=device),
            "input_features_mask": torch.ones(1, frames, dtype=torch.long, device=device),
        }


@dataclass(frozen=True)
class IndicatorVideo(ItemKind):
    """Video items embed indicator tokens with the LM's table: nothing to make without its weights."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        return {}


@register
class NemotronHOmniAdapter(FamilyAdapter):
    model_types = ("nemotron_h_omni",)
    transformers_since = "5.18.0"
    model_class = "NemotronH_Omni_Reasoning_V3"
    required_fields = ("llm_config.hidden_size",)
    items = {"image": RadioPatches(), "video": IndicatorVideo(), "audio": ParakeetMel()}
    predicted_only = {
        "video": "its items merge the text embeddings of frame indicator tokens from the language model's "
        "embed_tokens into the frame features (vLLM _create_final_video_embeddings), so they cannot be built "
        "without the LM's real weights"
    }
    look_alikes = (
        "vision_hidden_size",
        "projector_hidden_size",
        "audio_config.hidden_size",
        "audio_config.projection_hidden_size",
    )

    def required_paths(self, raw: Any) -> tuple[str, ...]:
        """The text width, under the released name (``llm_config``) or the one transformers saves."""
        return ("text_config.hidden_size",) if "text_config" in raw else ("llm_config.hidden_size",)
