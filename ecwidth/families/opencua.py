"""OpenCUA (``opencua``): Qwen2.5-VL's tower and merger on a Qwen2 LM, images only; the merger's width.

Engine only: the config is the checkpoint's remote code (``vision_config``,
``text_config``), read as data; the width is predicted.

``OpenCUAForConditionalGeneration`` (``opencua.py``) subclasses
``Qwen2_5_VLForConditionalGeneration`` and builds its tower as
``Qwen2_5_VisionTransformer`` (imported as ``OpenCUAVisionTransformer``),
whose ``Qwen2_5_VisionPatchMerger`` ends at ``vision_config.out_hidden_size``
(``qwen2_5_vl.py``); the inherited ``embed_multimodal`` ships that per image.
``vision_config.hidden_size`` is the tower's width and only looks like it.
Images only (``OpenCUAProcessingInfo.get_supported_mm_limits``).

With video pruning on, the inherited path appends Qwen2.5-VL's 4 mrope
position channels to every image (``_postprocess_image_embeds_evs``), so the
width is ``out_hidden_size + 4``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import CHECKPOINT_CODE, EngineRuleAdapter

if TYPE_CHECKING:
    from ecwidth.engines.runtime import RuntimeOptions

#: ``_postprocess_image_embeds_evs`` (qwen2_5_vl.py): the mrope positions appended per row with pruning on
#: (``ecwidth.families.packing.PRUNING_CHANNELS["qwen2_5_vl"]``; not imported, as it brings torch).
PRUNING_POSITIONS = 4


@register
class OpenCUAAdapter(EngineRuleAdapter):
    model_types = ("opencua",)
    required_fields = ("vision_config.out_hidden_size", "text_config.hidden_size")
    why = CHECKPOINT_CODE
    width_fields = {"image": FieldWidth("vision_config.out_hidden_size")}
    look_alikes = ("vision_config.hidden_size",)

    def option_channels(self, config: Any, modality: str, options: RuntimeOptions) -> int:
        return PRUNING_POSITIONS if options.pruning else 0
