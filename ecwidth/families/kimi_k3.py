"""Kimi-K3 (``kimi_k3``): Kimi-K2.5's MoonViT-3D and patch-merging projector, to the KimiLinear text width, as images.

vLLM's ``KimiK3ForConditionalGeneration`` (``vllm/models/kimi_k3/nvidia/model.py``,
built on ``kimi_k25_vit.py``) runs ``MoonViT3dPretrainedModel``, then
``KimiK25MultiModalProjector`` (``mm_projector_type`` ``patchmergerv2``: two
linears from ``vt_hidden_size × merge_kernel_size²`` and an RMS post-norm) to
the text width; ``embed_multimodal`` returns one tensor per image. Unlike
Kimi-K2.5 (``kimi_k25``, its own family, ``vision_chunk``), K3 takes the
standard ``image`` modality only. ``KimiK3Config``
(``transformers_utils/configs/kimi_k3.py``) overrides
``vision_config.text_hidden_size`` with ``text_config.hidden_size`` and
exposes that as ``hidden_size``, so the width is ``text_config.hidden_size``
whatever ``vision_config.text_hidden_size`` the file carries.

The config class is vLLM's own; transformers knows no ``kimi_k3`` type, so
the spec is the raw config read as data (``engine_only``) and the width is
predicted, never measured.
"""

from __future__ import annotations

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import EngineRuleAdapter


@register
class KimiK3Adapter(EngineRuleAdapter):
    model_types = ("kimi_k3",)
    width_fields = {"image": FieldWidth("text_config.hidden_size")}
    look_alikes = ("vision_config.vt_hidden_size", "vision_config.mm_hidden_size", "vision_config.text_hidden_size")
