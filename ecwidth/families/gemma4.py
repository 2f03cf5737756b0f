"""Gemma 4: a patch-sequence ViT pooled k×k, and a conformer audio tower, each through an embedder to the text width.

The engine ships, per item: the vision tower's pooled soft tokens (padding
rows stripped) through ``embed_vision``; a video's frames as images (70 soft
tokens each), concatenated into one tensor per video; the audio tower's valid
rows through ``embed_audio``. ``Gemma4MultimodalEmbedder`` (RMSNorm and a
linear) takes each to the text width, so every modality ships at it; the
embedders' inputs (the vision ``hidden_size``, the audio ``output_proj_dims``)
are the look-alikes. transformers' feature methods apply the same embedders;
only audio differs, in returning the padded rows with the mask beside them:
``pack`` keeps the valid ones, as the engine does.

Items are patch sequences with ``(x, y)`` patch positions. The minimal image
or video frame is one pooling window (one token), the minimal clip the
shortest that yields one token. The profile items are vLLM's dummies: a
224 × 224 image at the processor's ``max_soft_tokens`` (280: 256 tokens), a
video of 32 such frames at 70 soft tokens (64 each), and an audio item of
``fft_length`` (512) samples, one token.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ecwidth.families.adapter import FamilyAdapter, register, rows
from ecwidth.families.items import ItemKind, ItemSize

if TYPE_CHECKING:
    import torch
    from torch import nn

#: Image processor default: soft tokens an image may take.
IMAGE_SOFT_TOKENS = 280
#: vLLM's per-frame budget and frame count for videos (``_VIDEO_MAX_SOFT_TOKENS``, ``_VIDEO_MAX_FRAMES``).
VIDEO_SOFT_TOKENS, VIDEO_FRAMES = 70, 32
#: vLLM's dummy image side where the processor sets no size.
DUMMY_IMAGE_SIDE = 224
#: Gemma 4 audio feature extractor: 16 kHz, 20 ms frames, 10 ms hop, 128 mel bins; vLLM's dummy clip is one FFT.
SAMPLING_RATE, MEL_BINS, FFT_LENGTH = 16000, 128, 512


def soft_tokens(config: Any, height: int, width: int, budget: int) -> tuple[int, int]:
    """(rows, cols) of pooled tokens of an image resized into ``budget`` soft tokens, as vLLM's
    ``_compute_num_soft_tokens`` (and the Gemma 4 image processor) computes them."""
    vision = config.vision_config
    patch, k = vision.patch_size, vision.pooling_kernel_size
    unit = patch * k
    scale = math.sqrt(budget * k * k / ((height / patch) * (width / patch)))
    target_h = max(unit, math.floor(height * scale / unit) * unit)
    target_w = max(unit, math.floor(width * scale / unit) * unit)
    return target_h // unit, target_w // unit


def shrink(grid: tuple[int, int], max_tokens: int | None) -> tuple[int, int]:
    """Halve the longer side of a token grid until it holds at most ``max_tokens`` tokens."""
    h, w = grid
    while max_tokens is not None and h * w > max_tokens and (h > 1 or w > 1):
        h, w = (max(1, h // 2), w) if h >= w else (h, max(1, w // 2))
    return h, w


def fields_of_present_towers(
    raw: Mapping[str, Any], vision: tuple[str, ...], audio: tuple[str, ...]
) -> tuple[str, ...]:
    """``text_config.hidden_size`` and the fields of each tower the config has: a null tower needs none."""
    present = (vision if raw.get("vision_config") is not None else ()) + (
        audio if raw.get("audio_config") is not None else ()
    )
    return ("text_config.hidden_size", *present)


def patch_sequence(rows: int, cols: int, frames: int, side: int, dtype, device) -> tuple[torch.Tensor, torch.Tensor]:
    """Pixels ``[frames, rows·cols, 3·side²]`` and the ``(x, y)`` position of each patch."""
    import torch

    ys, xs = torch.meshgrid(torch.arange(rows, device=device), torch.arange(cols, device=device), indexing="ij")
    positions = torch.stack([xs.flatten(), ys.flatten()], dim=-1)[None].expand(frames, -1, -1)
    pixels = torch.randn(frames, rows * cols, 3 * side**2, dtype=dtype, device=device)
    return pixels, positions.contiguous()


@dataclass(frozen=True)
class Gemma4Patches(ItemKind):
    """An image (``frames`` 1) or a video: patch sequences pooled ``pooling_kernel_size``² to a token."""

    budget: int
    profile_frames: int = 1
    counts_tokens: ClassVar[bool] = True

    def profile_grid(self, config: Any) -> tuple[int, int]:
        return soft_tokens(config, DUMMY_IMAGE_SIDE, DUMMY_IMAGE_SIDE, self.budget)

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        grid, frames = ((1, 1), 1) if size == "minimal" else (self.profile_grid(config), self.profile_frames)
        if max_tokens is not None:
            frames = max(1, min(frames, max_tokens // (grid[0] * grid[1])))
            grid = shrink(grid, max_tokens)
        pixels, positions = self.patches(config, grid, frames, dtype, device)
        if modality == "image":
            return {"pixel_values": pixels, "image_position_ids": positions}
        return {
            "pixel_values_videos": pixels,
            "video_position_ids": positions,
            "num_frames_per_video": torch.tensor([frames], device=device),
        }

    def patches(self, config: Any, grid: tuple[int, int], frames: int, dtype, device):
        """The patch sequence of a ``grid`` of tokens: ``pooling_kernel_size``² patches pool to each."""
        vision = config.vision_config
        k = vision.pooling_kernel_size
        return patch_sequence(grid[0] * k, grid[1] * k, frames, vision.patch_size, dtype, device)

    def frame_tokens(self, config: Any, height: int, width: int) -> int:
        h, w = soft_tokens(config, height, width, self.budget)
        return min(h * w, self.budget)

    def tokens(self, config: Any, item: ItemSize) -> int:
        return (item.frames or 1) * self.frame_tokens(config, item.height, item.width)

    def profile_tokens(self, config: Any, modality: str) -> int:
        return self.profile_frames * self.frame_tokens(config, DUMMY_IMAGE_SIDE, DUMMY_IMAGE_SIDE)


def audio_tokens(samples: int, max_tokens: int = 750) -> int:
    """Tokens of a clip of ``samples`` 16 kHz samples: mel framing, then two stride-2 convolutions
    (vLLM's ``_compute_audio_num_tokens``), capped at the processor's ``audio_seq_length``."""
    frames = mel_frames(samples)
    for _ in range(2):
        frames = (frames - 1) // 2 + 1 if frames > 0 else 0
    return min(frames, max_tokens)


def mel_frames(samples: int) -> int:
    frame, hop = SAMPLING_RATE * 20 // 1000, SAMPLING_RATE * 10 // 1000
    return max(0, (samples + frame // 2 - (frame + 1)) // hop + 1)


class Gemma4Mel(ItemKind):
    """A log-mel clip ``[1, frames, 128]`` with its boolean mask; minimal and profile are one token."""

    counts_tokens: ClassVar[bool] = True

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        frames = 1 if size == "minimal" else mel_frames(FFT_LENGTH)
        return {
            "input_features": torch.randn(1, frames, MEL_BINS, dtype=dtype, device=device),
            "input_features_mask": torch.ones(1, frames, dtype=torch.bool, device=device),
        }

    def tokens(self, config: Any, item: ItemSize) -> int:
        return audio_tokens(round(item.seconds * SAMPLING_RATE))

    def profile_tokens(self, config: Any, modality: str) -> int:
        return audio_tokens(FFT_LENGTH)


@register
class Gemma4Adapter(FamilyAdapter):
    model_types = ("gemma4",)
    items = {
        "image": Gemma4Patches(IMAGE_SOFT_TOKENS),
        "video": Gemma4Patches(VIDEO_SOFT_TOKENS, profile_frames=VIDEO_FRAMES),
        "audio": Gemma4Mel(),
    }
    look_alikes = ("vision_config.hidden_size", "audio_config.hidden_size", "audio_config.output_proj_dims")

    def required_paths(self, raw: Mapping[str, Any]) -> tuple[str, ...]:
        vision = ("vision_config.hidden_size", "vision_config.patch_size", "vision_config.pooling_kernel_size")
        return fields_of_present_towers(raw, vision, ("audio_config.output_proj_dims",))

    def pack(self, model: nn.Module, modality: str, output: Any) -> torch.Tensor:
        if modality == "audio":  # transformers keeps the padded rows; vLLM ships the valid ones
            return output.pooler_output[output.attention_mask]
        return rows(output.pooler_output)


@register
class DiffusionGemmaAdapter(Gemma4Adapter):
    """DiffusionGemma: Gemma 4's vision tower and embedder on a block-diffusion LM; no audio.

    The engine's class takes Gemma 4's image and video paths as they are.
    transformers' encoder half, ``DiffusionGemmaEncoderModel``, declares
    images only and has no video method; ecwidth encodes a video's frames as
    images and concatenates them, as the engine does.
    """

    model_types = ("diffusion_gemma",)
    model_class = "DiffusionGemmaEncoderModel"  # the half that owns the vision tower; the decoder is text only
    items = {"image": Gemma4Adapter.items["image"], "video": Gemma4Adapter.items["video"]}
    look_alikes = ("vision_config.hidden_size",)

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        return ("image", "video") if config.vision_config is not None else ()

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        if modality == "video":
            item = {"pixel_values": item["pixel_values_videos"], "image_position_ids": item["video_position_ids"]}
        return self.pack(model, modality, model.get_image_features(**item))


@dataclass(frozen=True)
class UnifiedPatches(Gemma4Patches):
    """Raw ``model_patch_size`` patches, one token each: the encoder-free embedder has no pooling."""

    counts_tokens: ClassVar[bool] = False  # the unified processor's rule is not read here

    def patches(self, config: Any, grid: tuple[int, int], frames: int, dtype, device):
        return patch_sequence(*grid, frames, config.vision_config.model_patch_size, dtype, device)


class UnifiedAudioFrames(ItemKind):
    """Raw waveform frames ``[1, frames, audio_embed_dim]``, one token each; the profile is 750 (30 s)."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        frames = 1 if size == "minimal" else min(750, max_tokens or 750)
        return {
            "input_features": torch.randn(1, frames, config.audio_config.audio_embed_dim, dtype=dtype, device=device),
            "input_features_mask": torch.ones(1, frames, dtype=torch.bool, device=device),
        }


@register
class Gemma4UnifiedAdapter(Gemma4Adapter):
    """Gemma 4 Unified: encoder-free; raw patches and waveform frames straight into the embedders.

    Each image (and each video frame) goes through ``vision_embedder`` and
    ``embed_vision``, audio frames through ``embed_audio``, padding rows
    stripped: every modality at the text width. The embedders' inputs are the
    look-alikes: the vision ``mm_embed_dim`` and ``output_proj_dims`` (3840 in
    the published 12B, equal to its text width only by its sizes), and the
    audio ``output_proj_dims`` (640), which is ``audio_embed_dim`` under
    another name. transformers' feature methods do the same; audio returns its
    mask beside the padded rows, as in Gemma 4. No token rule: the unified
    processor's was not read. The profile image and video are Gemma 4's
    (vLLM's dummies at 224 px); the profile clip is 750 frames, vLLM's
    ``audio_seq_length`` budget.
    """

    model_types = ("gemma4_unified",)
    items = {
        "image": UnifiedPatches(IMAGE_SOFT_TOKENS),
        "video": UnifiedPatches(VIDEO_SOFT_TOKENS, profile_frames=VIDEO_FRAMES),
        "audio": UnifiedAudioFrames(),
    }
    look_alikes = (
        "vision_config.mm_embed_dim",
        "vision_config.output_proj_dims",
        "audio_config.output_proj_dims",
        "audio_config.audio_embed_dim",
    )

    def required_paths(self, raw: Mapping[str, Any]) -> tuple[str, ...]:
        vision = ("vision_config.patch_size", "vision_config.pooling_kernel_size", "vision_config.mm_embed_dim")
        return fields_of_present_towers(raw, vision, ("audio_config.audio_embed_dim",))
