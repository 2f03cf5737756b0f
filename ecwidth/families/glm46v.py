"""GLM-4.6V's transformers port (``glm46v``, and ``glmga``, which reuses its classes): served by vLLM's Transformers backend.

vLLM's native GLM classes serve ``glm4v`` / ``glm4v_moe`` (the published
GLM-4.6V checkpoints are ``glm4v_moe``, see ``glm4v.py``); a ``glm46v`` or
``glmga`` config goes through the backend, which ships the ``pooler_output``
of ``Glm46VModel.get_image_features`` / ``get_video_features``: the GLM-4V
vision tower (``glm4v_vision``, built by ``AutoModel`` from ``vision_config``)
ends in its patch merger, the same width the native GLM-4V classes ship. The
backend has no video pruning, so unlike the native GLM classes these take no
``video_pruning_rate``. Items and token counts are GLM-4V's: the ``Glm46V``
and ``Glmga`` processors keep its budgets (images 12544 to 11760000 pixels,
videos up to 47040000, patch 14, merge 2, temporal 2).
"""

from __future__ import annotations

from ecwidth.families.adapter import register
from ecwidth.families.glm4v import Glm4vAdapter


@register
class Glm46VAdapter(Glm4vAdapter):
    model_types = ("glm46v", "glmga")
    look_alikes = ("vision_config.hidden_size", "text_config.hidden_size")
