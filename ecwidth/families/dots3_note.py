"""Dots 3 Note: a MoE ViT with a patch merger, a Whisper-style audio tower with an adapter, and videos that mix both.

Each tower ends in its adapter's linear layer, so the widths are the
adapters' output dims, not the towers' widths. The engine encodes a video's
frames as images and its sound track as audio, and joins each video's frame
rows and audio rows with ``torch.cat`` on dim 0: the video width is therefore
the vision adapter's, and a video with a sound track only encodes at all
because the two adapters have the same width (otherwise the engine's ``cat``
raises).

vLLM builds the towers from the raw ``config.json`` sections (the released
schema: ``embed_dim``, ``num_heads``, ``pyramid_num_routed``,
``whisper_config``), which transformers' ``Dots3NoteConfig`` also reads, so
one config serves both. transformers' port differs in the defaults (5120 for
both adapters where vLLM's are 2048), which is why both widths are required
fields, and it renames the audio field to ``adapter_out_dim`` (``required_paths``
accepts either spelling). Its ``get_video_features`` encodes frames only;
ecwidth appends one audio token to every video item of a model with an audio
tower, as a video with a sound track gets, and concatenates as the engine
does, so a width mismatch fails here as it would there.

Items: images and video frames are Qwen-style patch grids (patch 14,
merge 2, no temporal patch: each frame is its own ``[1, h, w]`` grid).
The pixel budget is that of the image processor transformers maps the family
to (``Qwen2VLImageProcessor``: 3136 to 1003520 pixels, 1280 tokens); vLLM
reads it from the checkpoint's ``preprocessor_config.json``, which ecwidth
does not load. The profile image is the grid with the most tokens in that
budget (``get_max_image_size``); the profile video is four such frames (the
dummy builder's floor; the real count depends on ``max_model_len``) and has
no token rule. Audio: ``ceil(samples / 1280)`` tokens per 60 s chunk (one per
1280 samples: three stride-2 convolutions over 160-sample mel hops); the
profile clip is one 60 s chunk (750 tokens), the minimal clip one token.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

from ecwidth.families.adapter import FamilyAdapter, FieldWidth, lookup, register, rows
from ecwidth.families.items import ItemKind, ItemSize
from ecwidth.families.patch_grid import PatchGrid, cap_grid

#: The image processor transformers maps dots3_note to (Qwen2VLImageProcessor) and its default pixel budget.
PIXELS = (56 * 56, 28 * 28 * 1280)
SAMPLE_RATE = 16_000
#: Waveform samples per audio token: 160-sample hops, three stride-2 convolutions.
SAMPLES_PER_TOKEN = 160 * 8
#: Seconds of one audio chunk (the feature extractor's and vLLM's ``chunk_seconds``); the profile clip.
CHUNK_SECONDS = 60
#: Frames of the profile video: the floor of vLLM's ``Dots3NoteDummyInputsBuilder``.
PROFILE_FRAMES = 4


class DotsPatches(PatchGrid):
    """One image as a patch grid; the grid's pixel and grid keys of ``get_image_features``."""

    def keys(self, modality: str) -> tuple[str, str]:
        return ("pixel_values", "image_grid_thw")


@dataclass(frozen=True)
class DotsAudio(ItemKind):
    """A log-mel chunk ``[1, mel bins, 8 × tokens]`` and its waveform length in samples."""

    counts_tokens: ClassVar[bool] = True

    def samples(self, size: str, max_tokens: int | None) -> int:
        samples = SAMPLES_PER_TOKEN if size == "minimal" else CHUNK_SECONDS * SAMPLE_RATE
        if max_tokens is not None:
            samples = min(samples, max(1, max_tokens) * SAMPLES_PER_TOKEN)
        return samples

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        return audio_item(config, self.samples(size, max_tokens), dtype=dtype, device=device)

    def tokens(self, config: Any, item: ItemSize) -> int:
        samples = round(item.seconds * SAMPLE_RATE)
        chunk = CHUNK_SECONDS * SAMPLE_RATE
        whole, tail = divmod(samples, chunk)
        return whole * math.ceil(chunk / SAMPLES_PER_TOKEN) + math.ceil(tail / SAMPLES_PER_TOKEN)

    def profile_tokens(self, config: Any, modality: str) -> int:
        return math.ceil(CHUNK_SECONDS * SAMPLE_RATE / SAMPLES_PER_TOKEN)


def audio_item(config: Any, samples: int, *, dtype: Any, device: Any) -> dict[str, Any]:
    """Keyword inputs of ``get_audio_features`` for one clip of ``samples`` samples (within one chunk)."""
    import torch

    frames = math.ceil(samples / SAMPLES_PER_TOKEN) * 8  # the extractor keeps 8 mel frames a token
    return {
        "input_features": torch.randn(1, config.audio_config.feature_size, frames, dtype=dtype, device=device),
        "chunk_sample_lengths": torch.tensor([samples], device=device),
    }


@dataclass(frozen=True)
class DotsVideo(ItemKind):
    """Frames as image grids, plus one audio token where the model has an audio tower.

    The minimal item is one frame of one merged token; the profile item is
    ``PROFILE_FRAMES`` frames of the profile image's grid, capped to
    ``max_tokens`` (fewer frames first, then a smaller grid).
    """

    frames: DotsPatches

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        vision = config.vision_config
        merge = vision.spatial_merge_size
        if size == "minimal":
            count, (_, h, w) = 1, (1, merge, merge)
        else:
            count, (_, h, w) = PROFILE_FRAMES, self.frames.profile_grid(config, "image")
            if max_tokens is not None:
                frame_tokens = h * w // merge**2
                count = max(1, min(count, max_tokens // frame_tokens))
                _, h, w = cap_grid((1, h, w), merge, max(1, max_tokens // count))
        patch_dim = vision.num_channels * vision.patch_size**2
        item: dict[str, Any] = {
            "pixel_values_videos": torch.randn(count * h * w, patch_dim, dtype=dtype, device=device),
            "video_grid_thw": torch.tensor([[1, h, w]] * count, device=device),
        }
        if getattr(config, "audio_config", None) is not None:
            item["audio"] = audio_item(config, SAMPLES_PER_TOKEN, dtype=dtype, device=device)
        return item


@register
class Dots3NoteAdapter(FamilyAdapter):
    model_types = ("dots3_note",)
    transformers_since = "5.23.0"
    model_class = "Dots3NoteModel"
    items = {
        "image": DotsPatches(PIXELS),
        "video": DotsVideo(DotsPatches(PIXELS)),
        "audio": DotsAudio(),
    }
    width_fields = {
        "image": FieldWidth("vision_config.adapter_out_dim"),
        "video": FieldWidth("vision_config.adapter_out_dim"),
        "audio": FieldWidth("audio_config.adapter_out_dim"),  # transformers' name for whisper_adapter_out_dim
    }
    look_alikes = ("vision_config.hidden_size", "audio_config.hidden_size")

    def required_paths(self, raw: Any) -> tuple[str, ...]:
        """The audio adapter's width under the released name, or under the one transformers saves."""
        audio = lookup(raw, "audio_config")
        audio_width = (
            "audio_config.adapter_out_dim"
            if isinstance(audio, dict) and "adapter_out_dim" in audio and "whisper_adapter_out_dim" not in audio
            else "audio_config.whisper_adapter_out_dim"
        )
        return ("vision_config.adapter_out_dim", audio_width)

    def encode(self, model: Any, modality: str, item: dict[str, Any]) -> Any:
        import torch

        if modality != "video":
            return super().encode(model, modality, item)
        item = dict(item)
        audio = item.pop("audio", None)
        parts = [rows(model.get_video_features(**item).pooler_output)]
        if audio is not None:
            parts.append(rows(model.get_audio_features(**audio).pooler_output))
        return torch.cat(parts)  # as _process_video_input: frame rows, then audio rows, on dim 0
