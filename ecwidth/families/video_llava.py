"""Video-LLaVA (``video_llava``): one projector, the text width, for both towers.

``VideoLlavaModel.get_image_features`` and ``get_video_features`` run the
image tower's (or the video tower's, both CLIP towers built from
``vision_config``) ``vision_feature_layer`` hidden states through the projector
(two linears to the text width). The projector is the last step before the
LM, so a native class would ship the same width.

Rows differ by modality: an image drops the CLS row under the ``default``
``vision_feature_select_strategy``, a video never does (its feature method
ignores the strategy), so a frame is ``(image_size / patch_size)² + 1`` rows,
as the processor counts.

Items: ``image_size`` crops, the minimal item too (the CLIP position table is
fixed to it); a video is ``[1, frames, 3, side, side]``, one frame minimal.
The processor samples no frames (``do_sample_frames=False``), so the profile
video is the ``video_seq_length`` the config budgets (8 frames published).
"""

from __future__ import annotations

from typing import Any

from ecwidth.families._backend import WholeTiles
from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import ItemSize, side

#: ``--mm-processor-kwargs`` images need through the Transformers backend: by default the image processor returns
#: ``pixel_values_images``, and the backend's ``_process_image_input`` reads only ``pixel_values`` (or
#: ``image_patches``), so it would ship no image. Videos come as ``pixel_values_videos`` either way.
BACKEND_IMAGE_KWARGS = {"return_legacy_image_output": False}


def _grid_tokens(config: Any) -> int:
    vision = config.vision_config
    return (side(vision.image_size) // side(vision.patch_size)) ** 2


class ClipImage(WholeTiles):
    """One crop; its CLS row is dropped unless the strategy is ``full``."""

    def tokens_per_tile(self, config: Any) -> int:
        return _grid_tokens(config) + (config.vision_feature_select_strategy == "full")


class ClipFrames(WholeTiles):
    """A video's frames as ``[1, frames, 3, side, side]``; every frame keeps its CLS row."""

    key = "pixel_values_videos"

    def tokens_per_tile(self, config: Any) -> int:
        return _grid_tokens(config) + 1

    def tiles(self, config: Any, item: ItemSize) -> int:
        return item.frames

    def profile_tiles(self, config: Any, modality: str) -> int:
        return max(1, config.video_seq_length // self.tokens_per_tile(config))

    def shape(self, tiles: Any) -> dict[str, Any]:
        return {self.key: tiles[None]}


@register
class VideoLlavaAdapter(FamilyAdapter):
    model_types = ("video_llava",)
    transformers_since = "5.21.0"  # get_image_features takes pixel_values by keyword from 5.21 on
    required_fields = ("vision_config.image_size", "vision_config.patch_size", "text_config.hidden_size")
    items = {"image": ClipImage(), "video": ClipFrames()}
    look_alikes = ("vision_config.hidden_size",)
