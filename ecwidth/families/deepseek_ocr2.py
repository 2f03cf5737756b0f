"""DeepSeek-OCR-2 (``deepseek_ocr2``): SAM, a query encoder, one linear to the text width, and a view separator.

vLLM 0.32 serves DeepSeek-OCR-2's original checkpoint with
``DeepseekOCR2ForCausalLM`` (``deepseek_ocr2.py``), which reads vLLM's own
``deepseek_vl_v2`` config (``projector_config``), not transformers'
``deepseek_ocr2`` schema. Its ``embed_multimodal`` ships, per image, the
``MlpProjector`` (``linear``) output of the local views, then the global
view's, then ``view_seperator``: ``[tokens, projector_config.n_embed]``.

transformers' port (vLLM's registry has no ``DeepseekOcr2ForConditionalGeneration``,
so it would go through the Transformers backend, which ships the
``pooler_output`` of ``get_image_features``) feeds the LM the same layout: the
SAM tower (16-pixel patches, a neck and two stride-2 convs to
``downsample_channels[-1]``), the query encoder (144 learned queries for up to
144 SAM patches, 256 above, ``encoder_config.hidden_size`` wide), then
``multi_modal_projector`` (one linear to ``text_config.hidden_size``), local
views, global view and ``view_separator``. It ships ``text_config.hidden_size``;
the native class ships ``n_embed``, which **agrees** wherever the checkpoint
works, since both splice into the LM's embeddings. Not the width:
``encoder_config.hidden_size`` or SAM's ``output_channels``.

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

from ecwidth.families._backend import BACKEND
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
    engine = (
        f"{BACKEND}: text_config.hidden_size via multi_modal_projector. vllm DeepseekOCR2ForCausalLM "
        "(deepseek_ocr2.py) serves only the original checkpoint; it ships projector_config.n_embed, which agrees"
    )

    #: Bare parameters of the model the packing concatenates (``ecwidth.families._parameters``).
    separators: ClassVar[tuple[str, ...]] = ("view_separator",)

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        give_storage(model, self.separators, *self.encoder_dtype_device(model))
        return super().encode(model, modality, item)
