"""Ovis2's transformers port (``ovis2``): the visual embedding table, ``hidden_size`` wide.

``Ovis2Model.get_image_features`` runs the vision transformer, stacks
``hidden_stride``² neighbours, turns them with ``head_linear`` and
``head_norm`` into a probability over the visual vocabulary
(``vision_config.vocab_size``, with ``num_visual_indicator_tokens`` zero
columns appended), then looks it up in ``visual_embeddings_table``, the
model's own visual vocabulary table (not the LM's): the width is the
top-level ``hidden_size``, one row per stacked patch. ``text_config.hidden_size``
equals it in published checkpoints only because the LM must take it. vLLM's
native ``Ovis`` (``ovis.py``) serves the original remote-code checkpoints
(another schema) at the same ``config.hidden_size``.

Items: one ``image_size`` tile, the minimal item too (the tower's position
table is fixed to it), ``(image_size / patch_size / hidden_stride)²`` rows
(transformers' padding of a grid that is no multiple of ``hidden_stride``
fails, so published grids are multiples). The processor cuts an image into
tiles by its own settings: no token rule.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families._backend import ProcessorTiles
from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register
from ecwidth.families.items import side


class StackedPatchTiles(ProcessorTiles):
    """Whole tiles whose patch grid is stacked ``hidden_stride`` × ``hidden_stride`` into one row."""

    def tokens_per_tile(self, config: Any) -> int:
        vision = config.vision_config
        return (side(vision.image_size) // side(vision.patch_size) // vision.hidden_stride) ** 2


@register
class Ovis2Adapter(FamilyAdapter):
    model_types = ("ovis2",)
    required_fields = ("hidden_size", "vision_config.image_size", "vision_config.patch_size")
    items = {"image": StackedPatchTiles()}
    width_fields = {"image": FieldWidth("hidden_size")}
    look_alikes = ("text_config.hidden_size", "vision_config.hidden_size", "vision_config.vocab_size")
