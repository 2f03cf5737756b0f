"""Video-LLaVA (``video_llava``): served by vLLM's Transformers backend; one projector, the text width, for both towers.

vLLM 0.32 has no Video-LLaVA class; the Transformers backend
(``vllm/model_executor/models/transformers/multimodal.py``) ships the
``pooler_output`` of ``VideoLlavaModel.get_image_features`` and
``get_video_features``: the image tower's (or the video tower's, both CLIP
towers built from ``vision_config``) ``vision_feature_layer`` hidden states,
then ``VideoLlavaMultiModalProjector`` (two linears to
``text_config.hidden_size``). The projector is the last step before the LM,
so a native class ships the same width: ``text_config.hidden_size`` for
image and video. Not the width: ``vision_config.hidden_size`` (or its
multiple, the projector's input, where ``vision_feature_layer`` is a list).

Images only reach the backend with a processor setting: transformers'
``VideoLlavaImageProcessor`` returns its pixels as ``pixel_values_images``
unless ``return_legacy_image_output`` is off (on by default in 5.24), and
the backend's ``_process_image_input`` reads ``pixel_values`` (or
``image_patches``) alone, so with the default it ships no image (read in the
code; the live run fed ``pixel_values`` itself). Served with
``--mm-processor-kwargs '{"return_legacy_image_output": false}'``, it ships
the width above. Videos come as ``pixel_values_videos`` either way.

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

from ecwidth.families._backend import BACKEND, WholeTiles
from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import ItemSize, side


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
    required_fields = ("vision_config.image_size", "vision_config.patch_size", "text_config.hidden_size")
    items = {"image": ClipImage(), "video": ClipFrames()}
    engine = (
        f"{BACKEND}: text_config.hidden_size via VideoLlavaMultiModalProjector, image and video; images only with "
        "--mm-processor-kwargs '{\"return_legacy_image_output\": false}' (by default the processor returns "
        "pixel_values_images, which the backend does not read, and it ships no image)"
    )
