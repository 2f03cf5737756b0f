"""GLM-4V on ChatGLM (``chatglm`` with a ``vision_config``): EVA2-CLIP patches, a conv and a GLU to the ChatGLM width.

The published GLM-4V-9B config is ChatGLM's (``model_type`` ``chatglm``,
``architectures`` ``ChatGLMModel``) with a ``vision_config`` dict. vLLM serves
the tower only through ``GLM4VForCausalLM`` (``glm4v.py``): its text class,
``ChatGLMForCausalLM`` (``chatglm.py``), refuses a config with a
``vision_config`` and asks for ``--hf-overrides`` naming ``GLM4VForCausalLM``.

``EVA2CLIPModel`` runs the EVA2-CLIP transformer (``vision_config.hidden_size``
wide), drops the class token, downsamples 2×2 with a conv to the top-level
``hidden_size``, maps the rows with ``EVA2CLIPGLU`` (``linear_proj`` at
``hidden_size``, a SwiGLU through ``ffn_hidden_size``, ``dense_4h_to_h``
back to ``hidden_size``), and adds a ``boi`` row before and an ``eoi`` row
after: ``(image_size // patch_size // 2)² + 2`` rows per image, each
``hidden_size`` wide (``ChatGLMConfig`` defaults it to 4096). Images are the
only modality. A ``chatglm`` config without ``vision_config`` is a text-only
ChatGLM / GLM-4, which has no encoder.

The config class is vLLM's own (``transformers_utils/configs/chatglm.py``);
transformers knows no ``chatglm``, so the spec is the raw config
(``engine_only``) and the width is predicted, never measured.
"""

from __future__ import annotations

from ecwidth.families.adapter import register
from ecwidth.families.engine_rule import EngineRuleAdapter


@register
class GLM4VChatGLMAdapter(EngineRuleAdapter):
    model_types = ("chatglm",)
    #: ``ChatGLMConfig``'s default ``hidden_size``.
    default_hidden_size = 4096
    required_fields = ("vision_config",)
    look_alikes = ("vision_config.hidden_size", "ffn_hidden_size")
