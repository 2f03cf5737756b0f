"""BLIP-2: a ViT, a Q-Former of ``num_query_tokens`` learned queries, then ``language_projection`` to the text width.

The engine runs one ``image_size`` crop through the vision model, lets the
Q-Former's queries cross-attend to it and ships ``language_projection`` of
the query output: ``num_query_tokens`` rows per image, whatever the image.

transformers differs by class: ``Blip2Model`` (what its auto mapping gives
for ``blip-2``) has a ``get_image_features`` that returns the ViT output
alone, so the adapter builds ``Blip2ForConditionalGeneration``, whose
feature method runs the Q-Former and the projection as the engine does.

Whether the engine serves a config depends on its language model, which a
per-release record cannot say: the FLAN-T5 checkpoints put an
encoder-decoder model there, which no vLLM release can build, so
``check_served`` refuses them with ``encoder_decoder_serving``'s reason.
The published hub files are diff-style (no vision or Q-Former sizes): the
class defaults stand in for them, as they do for the engine.

The image count sets the tokens, not its size: the minimal item is a crop of
one patch (the ViT interpolates its position table), still
``num_query_tokens`` rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ecwidth.engines import releases
from ecwidth.engines.facts import Serving, every_vllm, not_served
from ecwidth.engines.releases import Release
from ecwidth.errors import NotServedError
from ecwidth.families._qformer import QFormerAdapter, QueryTokens
from ecwidth.families.adapter import register

_VLLM = Serving(
    "native",
    classes=("Blip2ForConditionalGeneration",),
    files=("vllm/model_executor/models/blip2.py",),
    ships="language_projection of the Q-Former's num_query_tokens queries: text_config.hidden_size",
)
#: Why no vLLM release serves BLIP-2 on an encoder-decoder language model (T5): what its class asks of one.
_NO_ENCODER_DECODER = not_served(
    "vLLM has no class for an encoder-decoder language model such as T5, so Blip2ForConditionalGeneration's "
    "init_vllm_registered_model (blip2.py) falls back to the Transformers backend, which decorates the "
    "decoder class for torch.compile with a position_ids argument (transformers/base.py "
    "_decorate_for_torch_compile) that T5Stack.forward does not take: support_torch_compile raises "
    "(compilation/decorators.py), so the engine cannot serve an encoder-decoder language model here"
)


@register
class Blip2Adapter(QFormerAdapter):
    model_types = ("blip-2",)
    model_class = "Blip2ForConditionalGeneration"  # Blip2Model's feature method stops before the Q-Former
    items = {"image": QueryTokens()}
    look_alikes = ("vision_config.hidden_size", "qformer_config.hidden_size")
    serving = every_vllm(_VLLM)
    #: How each release serves a config whose language model is encoder-decoder (``is_encoder_decoder``).
    encoder_decoder_serving: ClassVar[Mapping[str, Serving]] = every_vllm(_NO_ENCODER_DECODER)

    def check_served(self, config: Any, release: Release | str | None = None) -> Serving:
        """The family's record, unless the config's language model is one the release cannot build.

        Raises:
            NotServedError: The release does not serve BLIP-2, or not on this config's language model.
        """
        chosen = releases.release(release)
        record = super().check_served(config, chosen)
        text = config.get_text_config()
        if not getattr(text, "is_encoder_decoder", False):
            return record
        variant = self.encoder_decoder_serving.get(chosen.key, not_served(chosen.unlisted))
        if variant.serves:
            return variant
        raise NotServedError(
            f"{chosen} does not serve model_type {config.model_type!r} on an encoder-decoder language model "
            f"({text.model_type}): {variant.why_not}"
        )
