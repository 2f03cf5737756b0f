"""Alpamayo 2 Super (``alpamayo2_super``): NVIDIA's driving policy, whose served part is a Qwen3-VL, images only.

The checkpoint wraps a Qwen3-VL config in ``vlm_config`` beside a trajectory
expert that no engine serves. No transformers release has the model type, so
the spec reads the raw config (``engine_only``), with ``vlm_config``'s text
and vision configs lifted to the top level as the engine's own config class
lifts them; the tower is still built and measured: transformers' Qwen3-VL,
from the nested config. Everything else is Qwen3-VL's (DeepStack packing,
video pruning's channels, which the engine adds to images too).

Camera frames are images; the engine never takes video. Its processor applies
the config's per-image pixel budget (``min_pixels`` / ``max_pixels``, engine
defaults 163840 / 196608) over the checkpoint's, so the profile image is the
one with the most tokens in ``max_pixels``; a budget set to null leaves the
checkpoint's preprocessor config, Qwen3-VL's, in force.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ecwidth.families.adapter import register
from ecwidth.families.items import ItemSize
from ecwidth.families.patch_grid import PatchGrid, most_tokens_grid, smart_resize
from ecwidth.families.qwen3_vl import IMAGE_PIXELS, Qwen3VLAdapter

if TYPE_CHECKING:
    import torch
    from torch import nn

#: ``Alpamayo2SuperConfig``'s per-image pixel budget where the config sets none.
DEFAULT_PIXELS = (163840, 196608)
#: The sub-configs of ``vlm_config`` the engine's config class lifts to the top level.
LIFTED = ("text_config", "vision_config")


@dataclass(frozen=True)
class FramePatches(PatchGrid):
    """Qwen3-VL's image patches, in the pixel budget the config sets (``pixels``: the checkpoint's, where it is null)."""

    def budget(self, config: Any) -> tuple[int, int]:
        low = getattr(config, "min_pixels", DEFAULT_PIXELS[0])
        high = getattr(config, "max_pixels", DEFAULT_PIXELS[1])
        return self.pixels if low is None or high is None else (int(low), int(high))

    def profile_grid(self, config: Any, modality: str) -> tuple[int, int, int]:
        vision = self.vision(config)
        return (1, *most_tokens_grid(self.budget(config)[1], vision.patch_size, vision.spatial_merge_size))

    def tokens(self, config: Any, item: ItemSize) -> int:
        vision = self.vision(config)
        unit = vision.patch_size * vision.spatial_merge_size
        h, w = smart_resize(item.height, item.width, unit, *self.budget(config))
        return (h // unit) * (w // unit)


@register
class Alpamayo2SuperAdapter(Qwen3VLAdapter):
    model_types = ("alpamayo2_super",)
    engine_only = True
    model_class = "Qwen3VLModel"
    # Without deepstack_visual_indexes the engine's Qwen3-VL config class would silently fill in (8, 16, 24);
    # the patch and merge sizes set the token counts, which the raw config alone must give.
    required_fields = (
        "vlm_config.vision_config.out_hidden_size",
        "vlm_config.vision_config.deepstack_visual_indexes",
        "vlm_config.vision_config.depth",
        "vlm_config.vision_config.patch_size",
        "vlm_config.vision_config.spatial_merge_size",
        "vlm_config.text_config.hidden_size",
    )
    items = {"image": FramePatches(IMAGE_PIXELS)}

    def translate(self, raw: dict[str, Any]) -> dict[str, Any]:
        nested = raw.get("vlm_config") or {}
        return {**raw, **{key: dict(nested[key]) for key in LIFTED if isinstance(nested.get(key), dict)}}

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        return ("image",)  # the engine limits the family to images (get_supported_mm_limits)

    def lm_hidden_size(self, config: Any) -> int:
        return int(config.text_config.hidden_size)

    def construct(self, config: Any, dtype: torch.dtype) -> nn.Module:
        from transformers import Qwen3VLConfig

        text = {**config.text_config.to_dict(), "num_hidden_layers": 0}  # the towers never read the LM's layers
        qwen = Qwen3VLConfig(
            text_config=text,
            vision_config=config.vision_config.to_dict(),
            min_pixels=getattr(config, "min_pixels", DEFAULT_PIXELS[0]),  # the items' budget travels with the model
            max_pixels=getattr(config, "max_pixels", DEFAULT_PIXELS[1]),
        )
        return super().construct(qwen, dtype)
