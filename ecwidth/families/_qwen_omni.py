"""What the Qwen omni thinkers (Qwen2.5-Omni, Qwen3-Omni) share.

vLLM serves the thinker: it takes every multimodal input, while the talker
and the vocoder only make speech. We build the thinker's inner model from
``thinker_config`` and never the talker. The built model's config is the
thinker config, so each family also registers the thinker's own
``model_type`` (which lets a thinker-only config.json through as well).

Both thinkers take images and videos as Qwen-VL flattened patches whose size
Qwen2-VL's processors set per image or per frame, and audio as a log-mel
spectrogram from Whisper's feature extractor (16 kHz, hop 160: 100 frames a
second). vLLM ships the vision tower's output and the audio tower's output
per item, each with its own width.

Profile items: the image with the most tokens in the image budget, as vLLM
profiles it; for video, one temporal patch (two frames) of the largest frame
the processor's default video size allows (how many frames vLLM profiles
depends on its maximum sequence length, which a config cannot see); for audio
the 30 s clip vLLM profiles (``min(chunk_length, 30)`` seconds).
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import torch
from torch import nn

from ecwidth.adapter import DummySize, FamilyAdapter, ItemSize
from ecwidth.families._qwen_mm import construct_towers_off_meta, most_tokens_grid, pack_deepstack
from ecwidth.families._qwen_vision import cap_grid, minimal_grid, patch_item, smart_resize

SAMPLING_RATE = 16000
HOP_LENGTH = 160
PROFILE_AUDIO_SECONDS = 30


def mel_frames(seconds: float) -> int:
    """Mel frames of a clip: vLLM pads the 16 kHz waveform to a whole hop."""
    return math.ceil(seconds * SAMPLING_RATE / HOP_LENGTH)


def thinker_config(config: Any) -> Any:
    """The thinker's config, given the whole omni config or the thinker's own."""
    return getattr(config, "thinker_config", config)


class QwenOmniThinkerAdapter(FamilyAdapter):
    """Image, video and audio through an omni thinker; subclasses set the processor budgets and audio lengths."""

    encoder_attributes = ("visual", "audio_tower")
    #: (min, max) pixels of one image, from the published preprocessor_config.json.
    image_pixels: ClassVar[tuple[int, int]]
    #: (min, max) pixels of one video frame, from the processor's default video size.
    video_pixels: ClassVar[tuple[int, int]]
    #: Shortest clip, in mel frames, that yields one embedding.
    min_mel_frames: ClassVar[int]

    def audio_tokens(self, config: Any, frames: int) -> int:
        """Embeddings the audio tower emits for a clip of ``frames`` mel frames."""
        raise NotImplementedError

    def construct(self, config: Any, dtype: torch.dtype) -> nn.Module:
        return construct_towers_off_meta(self.model_class, thinker_config(config), self.encoder_attributes, dtype)

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        return ("image", "video", "audio")

    def lm_hidden_size(self, config: Any) -> int:
        return int(thinker_config(config).text_config.hidden_size)

    def predict(self, config: Any) -> dict[str, int]:
        thinker = thinker_config(config)
        vision = thinker.vision_config.out_hidden_size * (1 + self.deepstack_levels(config, "image"))
        return {"image": vision, "video": vision, "audio": thinker.audio_config.output_dim}

    def embed_tokens(self, config: Any, item: ItemSize) -> int:
        if item.modality == "audio":
            return self.audio_tokens(config, mel_frames(item.seconds))
        vision = thinker_config(config).vision_config
        unit = vision.patch_size * vision.spatial_merge_size
        if item.modality == "image":
            h, w = smart_resize(item.height, item.width, unit, *self.image_pixels)
            return (h // unit) * (w // unit)
        if item.modality == "video":
            h, w = smart_resize(item.height, item.width, unit, *self.video_pixels)
            return math.ceil(item.frames / vision.temporal_patch_size) * (h // unit) * (w // unit)
        raise ValueError(f"{config.model_type} takes image, video and audio items, not {item.modality!r}")

    def profile_tokens(self, config: Any, modality: str) -> int:
        if modality == "audio":
            return self.audio_tokens(config, mel_frames(PROFILE_AUDIO_SECONDS))
        vision = thinker_config(config).vision_config
        t, h, w = self._profile_grid(vision, modality)
        return t * h * w // vision.spatial_merge_size**2

    def _profile_grid(self, vision: Any, modality: str) -> tuple[int, int, int]:
        max_pixels = self.image_pixels[1] if modality == "image" else self.video_pixels[1]
        return (1, *most_tokens_grid(max_pixels, vision.patch_size, vision.spatial_merge_size))

    def dummy_item(
        self, model: nn.Module, modality: str, size: DummySize, *, max_tokens: int | None = None
    ) -> dict[str, Any]:
        thinker = thinker_config(model.config)
        dtype, device = self.encoder_dtype_device(model)
        if modality == "audio":
            frames = self.min_mel_frames if size == "minimal" else mel_frames(PROFILE_AUDIO_SECONDS)
            if max_tokens is not None:
                while frames > self.min_mel_frames and self.audio_tokens(thinker, frames) > max_tokens:
                    frames = max(self.min_mel_frames, frames // 2)
            mels = thinker.audio_config.num_mel_bins
            return {
                "input_features": torch.randn(1, mels, frames, dtype=dtype, device=device),
                "feature_attention_mask": torch.ones(1, frames, dtype=torch.long, device=device),
            }
        vision = thinker.vision_config
        grid = minimal_grid(vision) if size == "minimal" else self._profile_grid(vision, modality)
        if max_tokens is not None:
            grid = cap_grid(grid, vision.spatial_merge_size, max_tokens)
        return patch_item(vision, grid, dtype=dtype, device=device)

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        if modality == "audio":
            return model.get_audio_features(**item).last_hidden_state
        return pack_deepstack(model.visual(item["pixel_values"], grid_thw=item["grid_thw"]))
