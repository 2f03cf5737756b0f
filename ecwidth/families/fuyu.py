"""Fuyu (``fuyu``): one linear patch embedding to the text width; vLLM 0.32's Transformers backend cannot ship it.

vLLM 0.32 dropped its Fuyu class (``FuyuForCausalLM`` is in
``_PREVIOUSLY_SUPPORTED_MODELS``, until 0.25), so a Fuyu config falls back to
the Transformers backend (``vllm/model_executor/models/transformers/multimodal.py``),
which reads the ``pooler_output`` of ``get_image_features``. Fuyu's returns
the patch embeddings as ``last_hidden_state`` only: its ``pooler_output`` is
``None``, and ``_split_embeddings`` fails on it at the first item (read in
the code, not run). So the engine ships nothing for Fuyu. We measure what
transformers' model feeds its LM: ``FuyuModel.get_image_features`` applies
``vision_embed_tokens``, a linear map from ``patch_size² × num_channels``
pixels to ``text_config.hidden_size``, one row per patch. The patch size
(``patch_size² × num_channels``) is not the width.

Items: flattened ``patch_size × patch_size`` patches, one minimal; the
profile image is the processor's default target size (1080 × 1920, 36 × 64
patches at patch 30). The processor also interleaves newline tokens, which are
text embeddings, and resizes by its own settings: no token rule.
"""

from __future__ import annotations

import math
from typing import Any

import torch
from torch import nn

from ecwidth.families.adapter import FamilyAdapter, register, rows
from ecwidth.families.items import ItemKind

#: ``FuyuImageProcessor.size``: the image every input is scaled and padded to, (height, width).
PROFILE_IMAGE = (1080, 1920)


class FlatPatches(ItemKind):
    """Patches of ``patch_size × patch_size`` pixels, flattened: ``image_patches`` ``[1, patches, patch dim]``."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        patch = config.patch_size
        rows, cols = (math.ceil(side / patch) for side in PROFILE_IMAGE)
        count = 1 if size == "minimal" else min(rows * cols, max_tokens or rows * cols)
        return {"pixel_values": torch.randn(1, count, patch * patch * config.num_channels, dtype=dtype, device=device)}


@register
class FuyuAdapter(FamilyAdapter):
    model_types = ("fuyu",)
    required_fields = ("patch_size", "num_channels", "text_config.hidden_size")
    items = {"image": FlatPatches()}
    engine = (
        "none: vLLM 0.32 dropped its Fuyu class, and its Transformers backend reads pooler_output, which "
        "Fuyu's get_image_features leaves None, so it cannot ship Fuyu; measured: what FuyuModel feeds its "
        "LM, text_config.hidden_size via vision_embed_tokens (last_hidden_state)"
    )

    def pack(self, model: nn.Module, modality: str, output: Any) -> torch.Tensor:
        return rows(output.last_hidden_state)  # pooler_output is None
