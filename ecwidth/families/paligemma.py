"""PaliGemma: SigLIP patches through a linear projector, ``projection_dim`` wide.

The projector is one ``nn.Linear`` from ``vision_config.hidden_size`` to
``vision_config.projection_dim``, over the patches of one ``image_size`` crop.
The trap is which ``projection_dim``: ``PaliGemmaConfig`` overwrites
``vision_config.projection_dim`` with the top-level ``projection_dim`` (class
default 2048) when it loads, and vLLM reads the loaded config, so the
top-level field is the width and the one nested in the raw
``vision_config`` is ignored. It equals the text ``hidden_size`` in every
published checkpoint, but nothing ties the two. transformers'
``get_image_features`` also divides by ``sqrt(text hidden_size)`` where vLLM
does not: values only, not width.

vLLM accepts only full ``image_size`` crops; the minimal item is one patch,
which the tower takes through its own ``interpolate_pos_encoding``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register
from ecwidth.families.items import FixedTiles

if TYPE_CHECKING:
    import torch
    from torch import nn


@register
class PaliGemmaAdapter(FamilyAdapter):
    model_types = ("paligemma",)
    required_fields = ("projection_dim", "vision_config.hidden_size", "vision_config.patch_size")
    items = {"image": FixedTiles()}
    width_fields = {"image": FieldWidth("vision_config.projection_dim")}  # the top-level one, copied in on load
    look_alikes = ("text_config.hidden_size", "vision_config.hidden_size")

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        return self.pack(model, modality, model.get_image_features(**item, interpolate_pos_encoding=True))
