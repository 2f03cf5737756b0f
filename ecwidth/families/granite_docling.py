"""Granite-Docling (``granite_docling``): the Transformers backend's ``pooler_output``, its DeepStack levels dropped.

vLLM has no class of its own for Granite-Docling, and its Transformers
backend ships the ``pooler_output`` of ``get_image_features`` and nothing
else: per image, the connector's output (pixel shuffle by ``scale_factor``, a
projection, a fixed 2D position table, ``mlp_fc2``), ``out_hidden_size`` wide
(which ``GraniteDoclingConfig`` requires to equal ``text_config.hidden_size``).

**The DeepStack levels are dropped.** ``GraniteDoclingModel.get_image_features``
also returns ``deepstack_features``: one projected map of ``out_hidden_size``
per entry of ``vision_config.deepstack_visual_indexes`` (default three), which
its own LM adds to the hidden states of its first layers. The backend never
reads them, so a model served this way runs without them; a native engine
class that shipped them the way Qwen3-VL's does would ship
``out_hidden_size × (1 + len(deepstack_visual_indexes))``. The width here is
the backend's, with no DeepStack levels.

Items: tiles of exactly ``image_size`` pixels (the tower's position table and
the connector's position grid are fixed to it), as ``[1, tiles, 3, side,
side]`` with a ``pixel_attention_mask`` of real tiles. The minimal item is one
tile, the coarse route (``tile_fine_mask`` unset). The backend's profile
image comes from the processor's settings, which a ``config.json`` does not
carry, so the profile item is also one tile and there is no token rule.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families._backend import ProcessorTiles
from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register


class DoclingTiles(ProcessorTiles):
    """Whole ``image_size`` tiles, batched as one image with its mask of real tiles."""

    def shape(self, tiles: Any) -> dict[str, Any]:
        import torch

        return {"pixel_values": tiles[None], "pixel_attention_mask": torch.ones(1, len(tiles), dtype=torch.bool)}


@register
class GraniteDoclingAdapter(FamilyAdapter):
    model_types = ("granite_docling",)
    transformers_since = "5.23.0"
    required_fields = ("vision_config.out_hidden_size", "vision_config.image_size", "vision_config.patch_size")
    items = {"image": DoclingTiles()}
    width_fields = {"image": FieldWidth("vision_config.out_hidden_size")}
    look_alikes = ("vision_config.hidden_size",)
