"""What the Q-Former families (BLIP-2, InstructBLIP, InstructBLIP-Video) share: query-token items and the queries' storage.

A Q-Former's learned queries cross-attend to the vision tower's output, so an
item yields ``num_query_tokens`` embeddings per crop (or frame) whatever its
size, and ``language_projection`` takes them to the text width. transformers'
``ForConditionalGeneration`` classes hold the feature method that runs all
of it; a T5 text model (the FLAN-T5 checkpoints) keeps its width in ``d_model``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ecwidth.families._storage import give_storage
from ecwidth.families.adapter import FamilyAdapter
from ecwidth.families.items import FixedTiles

if TYPE_CHECKING:
    import torch
    from torch import nn


class QueryTokens(FixedTiles):
    """One crop, ``num_query_tokens`` embeddings whatever its size."""

    def tokens_per_tile(self, config: Any) -> int:
        return int(config.num_query_tokens)


class QFormerAdapter(FamilyAdapter):
    """A Q-Former family: its width field by text model, and an encode that gives the queries storage."""

    #: The tower's and the Q-Former's widths, which the shipped rows never have.
    look_alikes = ("vision_config.hidden_size", "qformer_config.hidden_size")

    def required_paths(self, raw: Mapping[str, Any]) -> tuple[str, ...]:
        text = raw.get("text_config") or {}
        width = "text_config.d_model" if text.get("model_type") == "t5" else "text_config.hidden_size"
        return ("num_query_tokens", "vision_config.patch_size", width)

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        give_storage(model, "query_tokens", *self.encoder_dtype_device(model))
        features = getattr(model, f"get_{modality}_features")
        return self.pack(model, modality, features(**item, interpolate_pos_encoding=True))
