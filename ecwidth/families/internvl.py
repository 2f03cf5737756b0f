"""InternVL (transformers-native ``-hf`` checkpoints): InternViT tiles, pixel shuffle, an MLP projector.

Each tile (an image's dynamic tiles plus a thumbnail, or a video's frames,
one tile each) goes through the vision tower, drops the CLS token, is
pixel-shuffled by ``downsample_ratio`` and projected by
``multi_modal_projector`` (LayerNorm, two linears to the text width); one
image or video ships its tiles flattened, ``[tiles × image_seq_length, text
hidden_size]``.

Both transformers (``input_modalities``) and vLLM accept video, so it is
measured too: frames go through the same path as image tiles. The profile
image is the largest tile count the default processor allows (``max_patches``
tiles plus the thumbnail); the profile video fills the text model's context
with frames, as vLLM fills the model length.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families._intern_tiles import InternVLTiles
from ecwidth.families.adapter import FamilyAdapter, register


@register
class InternVLAdapter(FamilyAdapter):
    model_types = ("internvl",)
    required_fields = (
        "downsample_ratio",
        "vision_config.image_size",
        "vision_config.patch_size",
        "text_config.hidden_size",
    )
    items = {"image": InternVLTiles(), "video": InternVLTiles()}
    look_alikes = ("vision_config.hidden_size",)

    def encode(self, model: Any, modality: str, item: dict[str, Any]) -> Any:
        # vLLM runs a video's frames through the image path, one tile each.
        return self.pack(model, modality, model.get_image_features(item["pixel_values"]))
