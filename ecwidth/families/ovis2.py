"""Ovis2's transformers port (``ovis2``): served by vLLM's Transformers backend; the visual embedding table, ``hidden_size`` wide.

vLLM 0.32 has no class for transformers' ``Ovis2ForConditionalGeneration``;
the Transformers backend (``vllm/model_executor/models/transformers/multimodal.py``)
ships the ``pooler_output`` of ``Ovis2Model.get_image_features``: the vision
transformer, ``hidden_stride``² neighbours stacked, ``head_linear`` and
``head_norm`` to a probability over the visual vocabulary
(``vision_config.vocab_size``, with ``num_visual_indicator_tokens`` zero
columns appended), then ``visual_embeddings_table``, the model's own visual
vocabulary table (not the LM's), ``[vision vocab, hidden_size]``: the width is
the top-level ``hidden_size``, one row per stacked patch. vLLM's native
``Ovis`` (``ovis.py``) serves the original remote-code checkpoints
(architecture ``Ovis``, another schema) and ships the same field through its
``VisualEmbedding`` (``vte``, ``config.hidden_size``): the widths agree. Not the
width: ``vision_config.hidden_size``, its ``hidden_stride``² multiple and
``vision_config.vocab_size``; ``text_config.hidden_size`` equals it in published
checkpoints only because the LM must take it.

Items: one ``image_size`` tile, the minimal item too (the tower's position
table is fixed to it), ``(image_size / patch_size / hidden_stride)²`` rows
(transformers' padding of a grid that is no multiple of ``hidden_stride``
fails, so published grids are multiples). The processor cuts an image into
tiles by its own settings: no token rule.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families._backend import BACKEND, ProcessorTiles
from ecwidth.families.adapter import FamilyAdapter, register
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
    engine = (
        f"{BACKEND}: hidden_size via visual_embeddings_table (vLLM's native Ovis, ovis.py, serves the "
        "original checkpoints at the same config.hidden_size)"
    )

    def predict(self, config: Any) -> dict[str, int]:
        return {"image": int(config.hidden_size)}
