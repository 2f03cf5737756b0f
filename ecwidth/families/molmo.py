"""Molmo (``molmo``, remote code): the ViT's pooled patches through ``image_projector`` to the top-level ``hidden_size``.

vLLM's ``MolmoForCausalLM`` (``molmo.py``) runs each crop through the ViT
(its width, ``image_emb_dim``, is the engine's own ``VisionBackboneConfig``
constant, 1024, not a config field), concatenates two ViT layers, pools 2×2
windows with attention (``image_pooling_2d``), then ``MolmoVisionBackbone.image_projector``
(``ImageProjectorMLP``: a SwiGLU of ``intermediate_size // 2`` inner width
whose ``down_proj`` ends at ``config.hidden_size``). ``_process_image_input``
ships the valid patch rows of each image, reordered, so the width is the
flat config's ``hidden_size``, the LM's width. Images only.

The config is remote code (a flat OLMo-style config with no sub-configs);
transformers has no ``molmo`` class (``molmo2`` is another family), so the
spec is the raw config read as data (``engine_only``) and the width is
predicted, never measured.
"""

from __future__ import annotations

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import REMOTE_CODE, EngineRuleAdapter


@register
class MolmoAdapter(EngineRuleAdapter):
    model_types = ("molmo",)
    why = REMOTE_CODE
    required_fields = ("hidden_size",)
    width_fields = {"image": FieldWidth("hidden_size")}
    look_alikes = ("intermediate_size",)
