"""MiniCPM-V 4.6 and 4.7 (``minicpmv4_6``, ``minicpmv4_7``): a NaViT SigLIP, two 2×2 merges, to the text width.

Every slice of an image, or every frame of a video, runs through the
Idefics2-style tower, a window-attention ``vit_merger`` after
``insert_layer_id`` (2×2, skipped in ``"4x"`` downsample mode) and the merger
(2×2 then MLP to the text width); the engine ships one tensor per image or
video, its slices or frames concatenated. transformers' ``get_image_features``
/ ``get_video_features`` run the same tower, window merger and merger and
return the per-unit features in ``pooler_output``; the defaults' packing
concatenates them as the engine does. The items are ``ecwidth.families._navit``'s.
"""

from __future__ import annotations

from ecwidth.families._navit import NaViTUnits
from ecwidth.families.adapter import FamilyAdapter, register


@register
class MiniCPMV4_6Adapter(FamilyAdapter):
    model_types = ("minicpmv4_6", "minicpmv4_7")
    required_fields = ("image_size", "vision_config.patch_size", "text_config.hidden_size")
    items = {"image": NaViTUnits(), "video": NaViTUnits()}
    look_alikes = ("vision_config.hidden_size",)
