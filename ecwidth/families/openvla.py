"""OpenVLA (``openvla``): Prismatic's fused DINOv2 + SigLIP patches, projected to the Llama width.

vLLM's ``OpenVLAForActionPrediction`` (``openvla.py``) is an ordinary
decoder-only multimodal model: ``embed_multimodal`` returns
``_process_image_input``, so its image items go through the encoder cache
like any other's. ``PrismaticVisionBackbone`` concatenates the DINOv2 and
SigLIP patch features (2176 wide fused, 1024 without), and
``PrismaticProjector`` maps them to ``text_config.hidden_size``: ``fc1``,
``fc2`` (and ``fc3``, fused) end there, 256 rows per image at 224 pixels.
``OpenVLAConfig`` builds ``text_config`` as a ``LlamaConfig``, whose default
``hidden_size`` (4096) stands in where the published ``text_config`` (a
diff against Llama 2 7B) omits it. Images are the only modality.

The config class is vLLM's own (``transformers_utils/configs/openvla.py``);
transformers knows no ``openvla`` and its towers are timm's, so the spec is
the raw config (``engine_only``) and the width is predicted, never measured.
"""

from __future__ import annotations

from ecwidth.families.adapter import register
from ecwidth.families.engine_rule import EngineRuleAdapter


@register
class OpenVLAAdapter(EngineRuleAdapter):
    model_types = ("openvla",)
    #: ``LlamaConfig``'s default ``hidden_size``, where ``text_config`` names none.
    default_hidden_size = 4096
    required_fields = ("text_config",)
