"""BLIP-2: a ViT, a Q-Former of ``num_query_tokens`` learned queries, then ``language_projection`` to the text width.

vLLM 0.32's ``Blip2ForConditionalGeneration.embed_multimodal`` (``blip2.py``)
runs one ``image_size`` crop through the vision model, lets the Q-Former's
queries cross-attend to it and ships ``language_projection`` of the query
output: ``[num_query_tokens, text_config.hidden_size]`` per image, whatever
the image. Neither ``vision_config.hidden_size`` (1408) nor
``qformer_config.hidden_size`` (768) is the width.

transformers differs by class: ``Blip2Model`` (what its auto mapping gives
for ``blip-2``) has a ``get_image_features`` that returns the ViT output
alone, so the adapter builds ``Blip2ForConditionalGeneration``, whose
feature method runs the Q-Former and the projection as vLLM does. A T5 text
model (the FLAN-T5 checkpoints) keeps its width in ``d_model``.

The image count sets the tokens, not its size: the minimal item is a crop of
one patch (the ViT interpolates its position table), still
``num_query_tokens`` rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import torch
from torch import nn

from ecwidth.adapter import FamilyAdapter, register
from ecwidth.items import FixedTiles


class QueryTokens(FixedTiles):
    """One crop, ``num_query_tokens`` embeddings whatever its size."""

    def tokens_per_tile(self, config: Any) -> int:
        return int(config.num_query_tokens)


@register
class Blip2Adapter(FamilyAdapter):
    model_types = ("blip-2",)
    model_class = "Blip2ForConditionalGeneration"  # Blip2Model's feature method stops before the Q-Former
    items = {"image": QueryTokens()}
    engine = "vllm Blip2ForConditionalGeneration (blip2.py): text_config.hidden_size (language_projection)"

    def required_paths(self, raw: Mapping[str, Any]) -> tuple[str, ...]:
        text = raw.get("text_config") or {}
        width = "text_config.d_model" if text.get("model_type") == "t5" else "text_config.hidden_size"
        return ("num_query_tokens", "vision_config.patch_size", width)

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        _give_query_tokens_storage(model, *self.encoder_dtype_device(model))
        return self.pack(model, modality, model.get_image_features(**item, interpolate_pos_encoding=True))


def _give_query_tokens_storage(model: nn.Module, dtype: torch.dtype, device: torch.device) -> None:
    """Zero the learned queries on the encoder's device: a bare parameter of the model, no submodule
    of the encoder, so the build leaves it on meta (the width does not depend on its values)."""
    queries = model.query_tokens
    if queries.device.type == "meta":
        model.query_tokens = nn.Parameter(torch.zeros(queries.shape, dtype=dtype, device=device), requires_grad=False)
