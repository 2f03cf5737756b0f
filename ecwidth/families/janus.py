"""Janus (``janus``): served by vLLM's Transformers backend; the aligner's output, ``vision_config.projection_dim`` wide.

vLLM 0.32 has no Janus class; the Transformers backend
(``vllm/model_executor/models/transformers/multimodal.py``) ships the
``pooler_output`` of ``JanusModel.get_image_features``: the SigLIP-style
understanding tower, then ``JanusVisionAlignerMLP`` (``fc1`` from
``vision_config.hidden_size`` to ``vision_config.projection_dim``, then
``depth - 1`` linears at that width): ``[num_image_tokens, projection_dim]``
per image. The width is the aligner's ``projection_dim``, not the text
hidden size read directly: nothing in the config ties the two (published
checkpoints set them equal, and the LM only works if they are).

The generation side (``vqmodel``, ``generation_*``) produces no embedding the
producer ships, so the encoder is ``vision_model`` and ``aligner`` only.

Items: one ``image_size`` image, the minimal item too (the tower's position
table is fixed to it); ``(image_size / patch_size)²`` tokens.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families._backend import BACKEND, WholeTiles
from ecwidth.families.adapter import FamilyAdapter, register


@register
class JanusAdapter(FamilyAdapter):
    model_types = ("janus",)
    encoder_attributes = ("vision_model", "aligner")
    required_fields = ("vision_config.projection_dim", "vision_config.image_size", "vision_config.patch_size")
    items = {"image": WholeTiles()}
    engine = f"{BACKEND}: vision_config.projection_dim via JanusVisionAlignerMLP"

    def predict(self, config: Any) -> dict[str, int]:
        return {"image": int(config.vision_config.projection_dim)}
