"""Idefics2 (``idefics2``): the perceiver resampler's latents, the text width.

vLLM's ``Idefics3ForConditionalGeneration`` reads Idefics3's pixel-shuffle
connector, not Idefics2's, so Idefics2 goes through the backend:
``Idefics2Model.get_image_features`` runs the SigLIP tower, then
``Idefics2Connector`` (``modality_projection``, an MLP to the text width, then
``Idefics2PerceiverResampler``, ``resampler_n_latents`` latents at
``perceiver_config.hidden_size``, which ``Idefics2Config`` forces to the text
hidden size). The resampler is the last step before the LM, so a native class
would ship the same width.

Items: ``[1, crops, 3, side, side]``; all-zero crops are padding, so pixels
are random. The tower's bucketed position ids take any side up to
``image_size``, so the minimal item is one crop of one patch, still
``resampler_n_latents`` rows. The default processor keeps an image whole
(``do_image_splitting=False``): one crop, ``resampler_n_latents`` tokens
whatever its size; the profile item is one ``image_size`` crop.
"""

from __future__ import annotations

from typing import Any

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
    look_alikes = ("vision_config.hidden_size", "text_config.intermediate_size")
