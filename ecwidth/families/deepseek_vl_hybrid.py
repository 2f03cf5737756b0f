"""DeepSeek-VL hybrid (``deepseek_vl_hybrid``): the two-tower aligner's output, the text width.

vLLM's native DeepSeek classes read the original ``deepseek_vl_v2`` schema,
so the port goes through the backend, which ships the ``pooler_output`` of
``DeepseekVLHybridModel.get_image_features``: the SigLIP tower on the low-res
image and the SAM tower on the high-res one (its neck, then
``DeepseekVLSamVisionProj``, interpolated to the SigLIP grid), then
``DeepseekVLHybridAligner``: each half projected to half the text width,
concatenated, and ``proj`` to the text width. The aligner is the last step
before the LM, so a native class would ship the same width.

Items: one image twice, at ``vision_config.image_size`` and at
``high_res_vision_config.image_size`` (both towers' position tables are
fixed to them), the minimal item too; ``(image_size / patch_size)²`` tokens.
``high_res_vision_alpha``, the weight of SAM's global-attention map, is a bare
parameter of the model, so it gets zeros here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ecwidth.families._backend import WholeTiles
from ecwidth.families._storage import give_storage
from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import random_tiles, side

if TYPE_CHECKING:
    import torch
    from torch import nn


class LowAndHighResImage(WholeTiles):
    """The image as the SigLIP tower sees it, plus ``high_res_pixel_values`` at the SAM tower's size."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        item = super().make(config, modality, size, max_tokens=max_tokens, dtype=dtype, device=device)
        high = config.high_res_vision_config
        pixels = side(high.image_size)
        item["high_res_pixel_values"] = random_tiles(1, high.num_channels, pixels, pixels, dtype=dtype, device=device)
        return item


@register
class DeepseekVLHybridAdapter(FamilyAdapter):
    model_types = ("deepseek_vl_hybrid",)
    required_fields = (
        "vision_config.image_size",
        "vision_config.patch_size",
        "high_res_vision_config.image_size",
        "text_config.hidden_size",
    )
    items = {"image": LowAndHighResImage()}
    look_alikes = ("vision_config.hidden_size", "high_res_vision_config.output_channels")

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        give_storage(model, "high_res_vision_alpha", *self.encoder_dtype_device(model))
        return super().encode(model, modality, item)
