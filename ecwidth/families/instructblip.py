"""InstructBLIP (``instructblip``) and InstructBLIP-Video (``instructblipvideo``): Q-Former queries, then ``language_projection``.

No vLLM 0.32 class serves either, and its Transformers backend cannot:
``TransformersMultiModalForCausalLM`` builds the ``AutoModel`` class
(``InstructBlipModel`` / ``InstructBlipVideoModel``, ``transformers/base.py``),
which has no ``get_image_features`` / ``get_video_features``, so its
``embed_multimodal`` (``_get_features`` in ``transformers/multimodal.py``) would
fail on the first item (read in the code, not run). We therefore measure what
transformers' model feeds its LM: the ``ForConditionalGeneration`` classes'
feature methods run the ViT, let the Q-Former's ``num_query_tokens`` queries
(with the instruction prompt, ``qformer_input_ids``) cross-attend to it, and
apply ``language_projection`` (``qformer_config.hidden_size`` to
``text_config.hidden_size``). The width is ``text_config.hidden_size``
(``d_model`` for the FLAN-T5 checkpoints); ``vision_config.hidden_size`` and
``qformer_config.hidden_size`` are not.

Items: an image is one crop, ``num_query_tokens`` rows whatever its size, so
the minimal crop is one patch (the ViT interpolates its position table). A
video is ``[1, frames, 3, side, side]``, ``num_query_tokens`` rows per frame;
the processor samples no frames, and the published checkpoints take four, the
profile video. The Q-Former prompt is one token: it sets no row of the output.
"""

from __future__ import annotations

from typing import Any

import torch

from ecwidth.families._qformer import QFormerAdapter, QueryTokens
from ecwidth.families.adapter import register
from ecwidth.families.items import ItemSize

#: Frames the published InstructBLIP-Video checkpoints take (the processor's "4 frames only").
PROFILE_FRAMES = 4


class PromptedQueryTokens(QueryTokens):
    """A crop with a one-token Q-Former prompt."""

    def shape(self, tiles: torch.Tensor) -> dict[str, Any]:
        return {self.key: tiles, "qformer_input_ids": torch.zeros(1, 1, dtype=torch.long, device=tiles.device)}


class PromptedQueryFrames(PromptedQueryTokens):
    """A video's frames as ``[1, frames, 3, side, side]``, ``num_query_tokens`` rows each."""

    def tiles(self, config: Any, item: ItemSize) -> int:
        return item.frames

    def profile_tiles(self, config: Any, modality: str) -> int:
        return PROFILE_FRAMES

    def shape(self, tiles: torch.Tensor) -> dict[str, Any]:
        return {**super().shape(tiles), self.key: tiles[None]}


#: The engine line of both, by the ``AutoModel`` class the backend would build and its missing feature method.
ENGINE = (
    "none: vLLM 0.32 has no class, and its Transformers backend builds {model}, which has no "
    "get_{modality}_features, so it cannot ship this family; measured: what the "
    "ForConditionalGeneration class feeds its LM, text_config.hidden_size via language_projection"
)


@register
class InstructBlipAdapter(QFormerAdapter):
    model_types = ("instructblip",)
    model_class = "InstructBlipForConditionalGeneration"  # InstructBlipModel has no feature method
    items = {"image": PromptedQueryTokens()}
    engine = ENGINE.format(model="InstructBlipModel", modality="image")


@register
class InstructBlipVideoAdapter(QFormerAdapter):
    model_types = ("instructblipvideo",)
    model_class = "InstructBlipVideoForConditionalGeneration"  # InstructBlipVideoModel has no feature method
    items = {"video": PromptedQueryFrames()}
    engine = ENGINE.format(model="InstructBlipVideoModel", modality="video")
