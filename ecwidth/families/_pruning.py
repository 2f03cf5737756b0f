"""Video pruning as vLLM's Qwen-style towers ship it: position channels appended to every item.

Shared by the families whose engine class takes ``--video-pruning-rate`` and
appends channels (Qwen2.5-VL and its subclasses, the Qwen3-VL tower family,
Cohere Compass): the channels are built from the item's grid and the width is
read from the result, never added to a number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ecwidth.engines.runtime import RuntimeOptions
from ecwidth.families.packing import PRUNING_CHANNELS, append_channels, pruning_channels

if TYPE_CHECKING:
    import torch
    from torch import nn


class PrunedPositions:
    """Mixin for a ``FamilyAdapter`` whose engine class appends ``pruning_layout``'s channels with pruning on
    (each release's registry says which architectures take the option)."""

    #: ``ecwidth.families.packing.PRUNING_CHANNELS`` key: which engine layout the channels follow.
    pruning_layout: ClassVar[str]

    def option_channels(self, config: Any, modality: str, options: RuntimeOptions) -> int:
        return PRUNING_CHANNELS[self.pruning_layout] if options.pruning else 0

    def apply_options(
        self, model: nn.Module, modality: str, item: dict[str, Any], packed: torch.Tensor, options: RuntimeOptions
    ) -> torch.Tensor:
        if not options.pruning:
            return packed
        grid = next(value for key, value in item.items() if key.endswith("grid_thw"))
        merge = model.config.vision_config.spatial_merge_size
        return append_channels(packed, pruning_channels(grid[0], merge, modality=modality, layout=self.pruning_layout))
