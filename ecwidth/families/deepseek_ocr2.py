"""DeepSeek-OCR-2 (``deepseek_ocr2``): SAM, a query encoder, one linear to the text width, and a view separator.

transformers' port feeds the LM, per image, the SAM tower (16-pixel patches,
a neck and two stride-2 convs), the query encoder (144 learned queries for up
to 144 SAM patches, 256 above), then ``multi_modal_projector`` (one linear to
the text width): local views, global view and ``view_separator``. vLLM's own
``DeepseekOCR2ForCausalLM`` reads only the original checkpoint's schema
(``projector_config``), so the port goes through the Transformers backend;
the native class's ``n_embed`` agrees with the text width wherever that
checkpoint works, since both splice into the LM's embeddings.

``view_separator`` is a bare parameter of the model, which the build leaves
on meta: ``encode`` gives it zeros first.

Items: one global view and no local crops. The SAM tower interpolates its
position table, so the minimal item is one SAM patch (145 rows: the 144
queries and the separator); the profile item is one view of
``sam_config.image_size`` (1024: 256 queries and the separator). Crops are
the processor's settings, so there is no token rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ecwidth.families._parameters import give_storage
from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import FixedTiles

if TYPE_CHECKING:
    import torch
    from torch import nn


class SamGlobalView(FixedTiles):
    """One global view for a SAM tower: a single patch at minimum, ``sam_config.image_size`` for the profile."""

    counts_tokens: ClassVar[bool] = False

    def vision(self, config: Any) -> Any:
        return config.vision_config.sam_config


@register
class DeepseekOcr2Adapter(FamilyAdapter):
    model_types = ("deepseek_ocr2",)
    encoder_attributes = ("vision_tower", "multi_modal_projector")
    required_fields = ("text_config.hidden_size", "vision_config.sam_config.patch_size")
    items = {"image": SamGlobalView()}
    look_alikes = ("vision_config.encoder_config.hidden_size", "vision_config.sam_config.output_channels")

    #: Bare parameters of the model the packing concatenates (``ecwidth.families._parameters``).
    separators: ClassVar[tuple[str, ...]] = ("view_separator",)

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        give_storage(model, self.separators, *self.encoder_dtype_device(model))
        return super().encode(model, modality, item)
