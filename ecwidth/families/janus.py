"""Janus (``janus``): the aligner's output, ``vision_config.projection_dim`` wide.

``JanusModel.get_image_features`` runs the SigLIP-style understanding tower,
then ``JanusVisionAlignerMLP`` (``fc1`` to ``vision_config.projection_dim``,
then ``depth - 1`` linears at that width). The width is the aligner's
``projection_dim``, not the text hidden size read directly: nothing in the
config ties the two (published checkpoints set them equal, and the LM only
works if they are).

The generation side (``vqmodel``, ``generation_*``) produces no embedding the
producer ships, so the encoder is ``vision_model`` and ``aligner`` only.

Items: one ``image_size`` image, the minimal item too (the tower's position
table is fixed to it); ``(image_size / patch_size)²`` tokens.
"""

from __future__ import annotations

from ecwidth.families._backend import WholeTiles
from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register


@register
class JanusAdapter(FamilyAdapter):
    model_types = ("janus",)
    encoder_attributes = ("vision_model", "aligner")
    required_fields = ("vision_config.projection_dim", "vision_config.image_size", "vision_config.patch_size")
    items = {"image": WholeTiles()}
    width_fields = {"image": FieldWidth("vision_config.projection_dim")}
    look_alikes = ("vision_config.hidden_size", "text_config.hidden_size")
