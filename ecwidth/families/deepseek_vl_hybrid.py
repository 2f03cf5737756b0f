"""DeepSeek-VL hybrid (``deepseek_vl_hybrid``): served by vLLM's Transformers backend; the two-tower aligner, the text width.

vLLM 0.32 has no class for transformers' DeepSeek-VL hybrid port (its
native DeepSeek classes read the original ``deepseek_vl_v2`` schema); the
Transformers backend (``vllm/model_executor/models/transformers/multimodal.py``)
ships the ``pooler_output`` of ``DeepseekVLHybridModel.get_image_features``:
the SigLIP tower on the low-res image and the SAM tower on the high-res one
(its neck, then ``DeepseekVLSamVisionProj``, interpolated to the SigLIP grid),
then ``DeepseekVLHybridAligner``: each half projected to
``text_config.hidden_size // 2``, concatenated, and ``proj`` to
``text_config.hidden_size``: ``[(image_size / patch_size)², text hidden]``
per image. The aligner is the last step before the LM, so a native class
ships the same width. Not the width: ``vision_config.hidden_size``,
``high_res_vision_config.output_channels × 4`` and the halves.

Items: one image twice, at ``vision_config.image_size`` and at
``high_res_vision_config.image_size`` (both towers' position tables are
fixed to them), the minimal item too; ``(image_size / patch_size)²`` tokens.
``high_res_vision_alpha``, the weight of SAM's global-attention map, is a bare
parameter of the model, so it gets zeros here.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from ecwidth.families._backend import BACKEND, WholeTiles
from ecwidth.families._storage import give_storage
from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import random_tiles, side


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
    engine = f"{BACKEND}: text_config.hidden_size via DeepseekVLHybridAligner"

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        give_storage(model, "high_res_vision_alpha", *self.encoder_dtype_device(model))
        return super().encode(model, modality, item)
