"""InstructBLIP (``instructblip``) and InstructBLIP-Video (``instructblipvideo``): Q-Former queries, then ``language_projection``.

No engine release serves either (the records say why: the Transformers
backend builds the ``AutoModel`` class, which has no feature method). We
therefore measure what transformers' model feeds its LM: the
``ForConditionalGeneration`` classes' feature methods run the ViT, let the
Q-Former's ``num_query_tokens`` queries (with the instruction prompt,
``qformer_input_ids``) cross-attend to it, and apply ``language_projection``
to the text width.

Items: an image is one crop, ``num_query_tokens`` rows whatever its size, so
the minimal crop is one patch (the ViT interpolates its position table). A
video is ``[1, frames, 3, side, side]``, ``num_query_tokens`` rows per frame;
the processor samples no frames, and the published checkpoints take four, the
profile video. The Q-Former prompt is one token: it sets no row of the output.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ecwidth.families._qformer import QFormerAdapter, QueryTokens
from ecwidth.families.adapter import register
from ecwidth.families.items import ItemSize

if TYPE_CHECKING:
    import torch

#: Frames the published InstructBLIP-Video checkpoints take (the processor's "4 frames only").
PROFILE_FRAMES = 4


class PromptedQueryTokens(QueryTokens):
    """A crop with a one-token Q-Former prompt."""

    def shape(self, tiles: torch.Tensor) -> dict[str, Any]:
        import torch

        return {self.key: tiles, "qformer_input_ids": torch.zeros(1, 1, dtype=torch.long, device=tiles.device)}


class PromptedQueryFrames(PromptedQueryTokens):
    """A video's frames as ``[1, frames, 3, side, side]``, ``num_query_tokens`` rows each."""

    def tiles(self, config: Any, item: ItemSize) -> int:
        return item.frames

    def profile_tiles(self, config: Any, modality: str) -> int:
        return PROFILE_FRAMES

    def shape(self, tiles: torch.Tensor) -> dict[str, Any]:
        return {**super().shape(tiles), self.key: tiles[None]}


@register
class InstructBlipAdapter(QFormerAdapter):
    model_types = ("instructblip",)
    model_class = "InstructBlipForConditionalGeneration"  # InstructBlipModel has no feature method
    items = {"image": PromptedQueryTokens()}


@register
class InstructBlipVideoAdapter(QFormerAdapter):
    model_types = ("instructblipvideo",)
    model_class = "InstructBlipVideoForConditionalGeneration"  # InstructBlipVideoModel has no feature method
    items = {"video": PromptedQueryFrames()}
