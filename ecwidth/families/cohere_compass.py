"""Cohere Compass (North Micro Vision): DeepStack vision, packed as the producer ships it.

The vision tower is Qwen3-VL's, with axial 2D rope. transformers returns the
merger output in ``pooler_output`` and one feature map per
``deepstack_visual_indexes`` entry in ``deepstack_features``. vLLM's tower
concatenates them on the last dim inside the tower, main features first, then
each level in layer order; the consumer splits it back into
``out_hidden_size`` slices. We pack them the same way.

transformers' model also encodes video (``get_video_features``), but the
engine registers images only, so only images are measured. With video
pruning on, each image gets 5 more channels (4 mrope positions and a zero
channel, as Qwen3-VL's images); ecwidth builds them from the item's grid.

Items are Qwen-style patch grids; token counts follow the Qwen2-VL
``smart_resize`` rule of the published preprocessor (32 px per token). The
profile image is vLLM's: the most tokens the pixel budget allows, laid out as
the most nearly square grid whose aspect ratio is at most 200.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families._pruning import PrunedPositions
from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register
from ecwidth.families.packing import pack_deepstack
from ecwidth.families.patch_grid import PatchGrid

# size.shortest_edge / size.longest_edge of the published preprocessor_config.json, as
# transcribed by third parties. The image processor class defaults (56², 28²·1280, patch 14)
# belong to Qwen2-VL and do not match this model's 16 px patches.
IMAGE_PIXELS = (65536, 16777216)


@register
class CohereCompassAdapter(PrunedPositions, FamilyAdapter):
    model_types = ("cohere_compass",)
    required_fields = (
        "vision_config.out_hidden_size",
        "vision_config.deepstack_visual_indexes",
        "vision_config.patch_size",
        "text_config.hidden_size",
        "text_config.rope_parameters",  # per layer type; the LM (built on meta) cannot be laid out without it
    )
    items = {"image": PatchGrid(IMAGE_PIXELS)}  # vLLM registers images only
    width_fields = {
        "image": FieldWidth("vision_config.out_hidden_size", deepstack="vision_config.deepstack_visual_indexes")
    }
    look_alikes = ("vision_config.out_hidden_size", "vision_config.hidden_size", "text_config.hidden_size")
    pruning_layout = "qwen3_vl"  # 5 channels on images, as Qwen3-VL's images get

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        return ("image",)

    def deepstack_levels(self, config: Any, modality: str) -> int:
        return len(config.vision_config.deepstack_visual_indexes or ())

    def pack(self, model: Any, modality: str, output: Any) -> Any:
        return pack_deepstack(output)
