"""Granite-Docling (``granite_docling``): served by vLLM's Transformers backend, which ships ``pooler_output`` only.

vLLM 0.32 has no class of its own for Granite-Docling; it loads through the
Transformers modeling backend (``TransformersMultiModalForCausalLM``,
``vllm/model_executor/models/transformers/multimodal.py``), whose
``embed_multimodal`` calls ``get_image_features`` and ships its
``pooler_output``, split per item, and nothing else. That is what ecwidth
measures: ``[tiles × (image_size / patch_size / scale_factor)², vision_config.out_hidden_size]``
per image, the connector's output (pixel shuffle by ``scale_factor``, a
projection, a fixed 2D position table, ``mlp_fc2``).

**The DeepStack levels are dropped.** transformers'
``GraniteDoclingModel.get_image_features`` also returns
``deepstack_features``: one projected map of ``out_hidden_size`` per entry of
``vision_config.deepstack_visual_indexes`` (default three), which its own
LM adds to the hidden states of its first layers. The backend never reads
them, so a model served this way runs without them; a native engine class
that shipped them the way Qwen3-VL's does would ship
``out_hidden_size × (1 + len(deepstack_visual_indexes))``. The width here is
the backend's: ``out_hidden_size`` (which ``GraniteDoclingConfig`` requires to
equal ``text_config.hidden_size``), with no DeepStack levels.

Items: tiles of exactly ``image_size`` pixels (the tower's position table and
the connector's position grid are fixed to it), as ``[1, tiles, 3, side,
side]`` with a ``pixel_attention_mask`` of real tiles. The minimal item is one
tile, the coarse route (``tile_fine_mask`` unset). The backend's profile
image comes from the processor's settings, which a ``config.json`` does not
carry, so the profile item is also one tile and there is no token rule.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families._backend import BACKEND, ProcessorTiles
from ecwidth.families.adapter import FamilyAdapter, register


class DoclingTiles(ProcessorTiles):
    """Whole ``image_size`` tiles, batched as one image with its mask of real tiles."""

    def shape(self, tiles: Any) -> dict[str, Any]:
        import torch

        return {"pixel_values": tiles[None], "pixel_attention_mask": torch.ones(1, len(tiles), dtype=torch.bool)}


@register
class GraniteDoclingAdapter(FamilyAdapter):
    model_types = ("granite_docling",)
    required_fields = ("vision_config.out_hidden_size", "vision_config.image_size", "vision_config.patch_size")
    items = {"image": DoclingTiles()}
    engine = f"{BACKEND}: vision_config.out_hidden_size; the DeepStack levels (deepstack_features) are dropped"

    def predict(self, config: Any) -> dict[str, int]:
        return {"image": int(config.vision_config.out_hidden_size)}
