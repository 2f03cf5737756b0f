"""BLIP-2: a ViT, a Q-Former of ``num_query_tokens`` learned queries, then ``language_projection`` to the text width.

The engine runs one ``image_size`` crop through the vision model, lets the
Q-Former's queries cross-attend to it and ships ``language_projection`` of
the query output: ``num_query_tokens`` rows per image, whatever the image.

transformers differs by class: ``Blip2Model`` (what its auto mapping gives
for ``blip-2``) has a ``get_image_features`` that returns the ViT output
alone, so the adapter builds ``Blip2ForConditionalGeneration``, whose
feature method runs the Q-Former and the projection as the engine does.

Whether the engine serves a config also depends on its language model: the
FLAN-T5 checkpoints put an encoder-decoder model there, which no vLLM release
can build, so ``check_served`` refuses them with the reason the release's
registry entry gives under ``refuses.encoder_decoder_lm``.
The published hub files are diff-style (no vision or Q-Former sizes): the
class defaults stand in for them, as they do for the engine.

The image count sets the tokens, not its size: the minimal item is a crop of
one patch (the ViT interpolates its position table), still
``num_query_tokens`` rows.
"""

from __future__ import annotations

from typing import Any

from ecwidth.engines.facts import Serving
from ecwidth.engines.releases import Release
from ecwidth.errors import NotServedError
from ecwidth.families._qformer import QFormerAdapter, QueryTokens
from ecwidth.families.adapter import register


@register
class Blip2Adapter(QFormerAdapter):
    model_types = ("blip-2",)
    model_class = "Blip2ForConditionalGeneration"  # Blip2Model's feature method stops before the Q-Former
    items = {"image": QueryTokens()}

    def check_served(self, config: Any, release: Release) -> Serving:
        """The family's record, unless the config's language model is one the release cannot build.

        Raises:
            NotServedError: The release does not serve BLIP-2, or not on this config's language model.
        """
        record = super().check_served(config, release)
        text = config.get_text_config()
        if not getattr(text, "is_encoder_decoder", False):
            return record
        why = record.refuses.get("encoder_decoder_lm")
        if why is None:
            return record
        raise NotServedError(
            f"{release} does not serve model_type {config.model_type!r} on an encoder-decoder language model "
            f"({text.model_type}): {why}"
        )
