"""LLaVA-NeXT-Video (``llava_next_video``): CLIP frames, 2D pooling, the LLaVA projector, videos only.

Each frame goes through the vision tower (the ``vision_feature_layer``, CLS
dropped under ``default``), then the pooler (``spatial_pool_mode`` with stride
``spatial_pool_stride``), then the projector to the text width; one tensor per
video, frames flattened: ``[frames × ceil(side / stride)², H]``.

vLLM's class accepts videos only; transformers' ``LlavaNextVideoModel`` also
takes images (LLaVA-NeXT's anyres path, ``input_modalities`` lists them). The
engine's modalities win: only ``video`` is measured and predicted. A ``conv``
pooler's ``spatial_pool_out_channels`` must equal ``vision_config.hidden_size``,
the projector's input. vLLM's pooler supports only ``average`` and ``max`` and
raises on ``conv``; transformers measures all three.

Items: vLLM profiles one video of full ``image_size`` frames, as many as fit
``max_model_len`` (here the text model's ``max_position_embeddings``). The
minimal item is one frame of one pooling window (``stride`` patches a side),
the tower interpolating its position embeddings (``small_tiles``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ecwidth.families._tiles import small_tiles
from ecwidth.families.adapter import register
from ecwidth.families.items import DummySize, ItemSize
from ecwidth.families.llava import LlavaAdapter, LlavaNextAdapter

if TYPE_CHECKING:
    import torch
    from torch import nn


def frame_tokens(config: Any) -> int:
    """Tokens per frame: the patch grid pooled by ``spatial_pool_stride`` (vLLM's ``_get_num_frame_tokens``)."""
    vision = config.vision_config
    return math.ceil(vision.image_size // vision.patch_size / config.spatial_pool_stride) ** 2


@register
class LlavaNextVideoAdapter(LlavaNextAdapter):
    model_types = ("llava_next_video",)
    takes = ("image", "video")
    encoder_attributes = ("vision_tower", "vision_resampler", "multi_modal_projector")
    required_fields = LlavaAdapter.required_fields + ("spatial_pool_stride",)

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        return ("video",)  # vLLM's class serves no images

    def embed_tokens(self, config: Any, item: ItemSize) -> int:
        return item.frames * frame_tokens(config)

    def profile_tokens(self, config: Any, modality: str) -> int:
        return self._profile_frames(config) * frame_tokens(config)

    def _profile_frames(self, config: Any, max_tokens: int | None = None) -> int:
        """vLLM's profile video: as many full frames as fit the model length (or ``max_tokens``), at least one."""
        budget = config.get_text_config().max_position_embeddings if max_tokens is None else max_tokens
        return max(1, budget // frame_tokens(config))

    def dummy_item(
        self, model: nn.Module, modality: str, size: DummySize, *, max_tokens: int | None = None
    ) -> dict[str, Any]:
        config = model.config
        if size == "minimal":  # one frame of one pooling window
            frames, side = 1, config.spatial_pool_stride * config.vision_config.patch_size
        else:
            frames, side = self._profile_frames(config, max_tokens), config.vision_config.image_size
        return {"pixel_values_videos": self._random_pixels(model, 1, frames, height=side, width=side)}

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        with small_tiles(model.config, item["pixel_values_videos"].shape[-1]) as tower_kwargs:
            return model.get_video_features(**item, **tower_kwargs).pooler_output[0]
