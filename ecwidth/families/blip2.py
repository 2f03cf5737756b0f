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

from ecwidth.families._qformer import QFormerAdapter, QueryTokens
from ecwidth.families.adapter import register


@register
class Blip2Adapter(QFormerAdapter):
    model_types = ("blip-2",)
    model_class = "Blip2ForConditionalGeneration"  # Blip2Model's feature method stops before the Q-Former
    items = {"image": QueryTokens()}
    engine = "vllm Blip2ForConditionalGeneration (blip2.py): text_config.hidden_size (language_projection)"
