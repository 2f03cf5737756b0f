"""Idefics2 (``idefics2``): served by vLLM's Transformers backend; the perceiver resampler's latents, the text width.

vLLM 0.32 has no Idefics2 class (its ``Idefics3ForConditionalGeneration``
reads Idefics3's pixel-shuffle connector, not Idefics2's); the Transformers
backend (``vllm/model_executor/models/transformers/multimodal.py``) ships the
``pooler_output`` of ``Idefics2Model.get_image_features``: the SigLIP tower's
last hidden state, then ``Idefics2Connector`` (``modality_projection``, an MLP
from ``vision_config.hidden_size`` to ``text_config.hidden_size``, then
``Idefics2PerceiverResampler``, ``resampler_n_latents`` latents at
``perceiver_config.hidden_size``, which ``Idefics2Config`` forces to the text
hidden size): ``[crops × resampler_n_latents, text_config.hidden_size]`` per
image. The resampler is the last step before the LM, so a native class ships
the same width. Not the width: ``vision_config.hidden_size``,
``text_config.intermediate_size`` (the MLP's inner size) and
``resampler_n_heads × resampler_head_dim``.

Items: ``[1, crops, 3, side, side]``; all-zero crops are padding, so pixels
are random. The tower's bucketed position ids take any side up to
``image_size``, so the minimal item is one crop of one patch, still
``resampler_n_latents`` rows. The default processor keeps an image whole
(``do_image_splitting=False``): one crop, ``resampler_n_latents`` tokens
whatever its size; the profile item is one ``image_size`` crop.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families._backend import BACKEND
from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import FixedTiles


class ResampledCrops(FixedTiles):
    """One prompt of crops, each resampled to ``resampler_n_latents`` embeddings whatever its size."""

    def tokens_per_tile(self, config: Any) -> int:
        return int(config.perceiver_config.resampler_n_latents)

    def shape(self, tiles: Any) -> dict[str, Any]:
        return {"pixel_values": tiles[None]}


@register
class Idefics2Adapter(FamilyAdapter):
    model_types = ("idefics2",)
    required_fields = ("perceiver_config.resampler_n_latents", "vision_config.patch_size", "text_config.hidden_size")
    items = {"image": ResampledCrops()}
    engine = f"{BACKEND}: text_config.hidden_size via Idefics2Connector (MLP, perceiver resampler)"
