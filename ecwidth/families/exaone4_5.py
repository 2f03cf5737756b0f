"""EXAONE 4.5: a Qwen2.5-VL tower with grouped-query attention blocks; Qwen2.5-VL's merger, so its width.

The engine's class subclasses Qwen2.5-VL's and only swaps the vision blocks for
GQA ones (``num_key_value_heads``); the patch merger, and so the width and the
pruning channels on images, are Qwen2.5-VL's. Published configs set
``out_hidden_size`` to the LM's width by convention, so only a config where
they differ tells the right field from the wrong one.

The trap is video pruning: the class keeps Qwen2-VL's processor, which passes
no ``second_per_grid_ts``, and the inherited pruned-video path cannot run
without it, so no pruned video item is ever shipped (``unserved_with``).
Items and token counts are Qwen2-VL's (transformers and the engine both use
Qwen2-VL's processors).
"""

from __future__ import annotations

from ecwidth.engines.facts import PRUNING, Serving
from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.families._qwen2_vl_items import PIXELS, Qwen2VLPatches
from ecwidth.families.adapter import register
from ecwidth.families.qwen2_vl import Qwen2_5_VLAdapter

#: Why a pruned video cannot ship, common to both releases: the function that raises, and the field it lacks.
_NO_SECOND_PER_GRID_TS = (
    "Qwen2_5_VLForConditionalGeneration._postprocess_video_embeds_evs (qwen2_5_vl.py) requires "
    "second_per_grid_ts with video_pruning_rate > 0, and the processor EXAONE-4.5 registers, "
    "Qwen2VLMultiModalProcessor, has no such field (qwen2_vl.py _create_qwen2vl_field_factory): "
    "every pruned video item raises"
)
_VLLM_0_32 = Serving(
    "native",
    classes=("Exaone4_5_ForConditionalGeneration",),
    files=(
        "vllm/model_executor/models/exaone4_5.py",
        "vllm/model_executor/models/qwen2_5_vl.py",
        "vllm/model_executor/models/qwen2_vl.py",
    ),
    ships="vision_config.out_hidden_size (Qwen2.5-VL's merger); +4 on images with video pruning",
    options=PRUNING,
    unserved_with={
        "video_pruning_rate": {
            "video": f"{_NO_SECOND_PER_GRID_TS}; the same function then reads self.video_pruning_rate, which "
            "Exaone4_5_ForConditionalGeneration.__init__ never sets"
        }
    },
)


@register
class Exaone4_5Adapter(Qwen2_5_VLAdapter):
    model_types = ("exaone4_5",)
    required_fields = (
        "vision_config.out_hidden_size",
        "vision_config.hidden_size",
        "vision_config.depth",
        "vision_config.num_key_value_heads",
    )
    items = {"image": Qwen2VLPatches(PIXELS), "video": Qwen2VLPatches(PIXELS)}
    look_alikes = ("vision_config.hidden_size", "text_config.hidden_size")
    serving = {
        VLLM_0_32: _VLLM_0_32,
        # 0.33's __init__ sets video_pruning_rate; the missing field still stops every pruned video.
        VLLM_0_33: _VLLM_0_32.same_as(unserved_with={"video_pruning_rate": {"video": _NO_SECOND_PER_GRID_TS}}),
    }
