"""Intern-S1-Pro, Intern-S2-Preview and Intern-S2-Mobius: Qwen3-VL's vision tower, DeepStack packed; engine only.

The checkpoints are remote code (their config classes are the hub's; vLLM's
own classes read them), and no transformers release has these model types, so
the spec is the raw config read as data (``engine_only``) and the width is
predicted from the engine's rule, never measured.

Each engine class builds ``qwen3_vl.py:Qwen3_VisionTransformer`` from
``vision_config`` and ships, per image or video, the merger output
(``vision_config.out_hidden_size``) followed on the last dim by one merger
output per DeepStack layer: ``out_hidden_size x (1 + len(deepstack_visual_indexes))``,
none where the list is absent (the tower reads it with ``hasattr``) or empty.

* ``interns1_pro``: ``interns1_pro.py:InternS1ProForConditionalGeneration``, a
  ``Qwen3VLForConditionalGeneration`` (its ``embed_multimodal``); with video
  pruning on, ``_postprocess_image_embeds_evs`` / ``_postprocess_video_embeds_evs``
  append 5 channels to every item. vLLM 0.32's ``__init__`` reads
  ``self.model_config`` before it sets it (``build_mm_input_norm``), so that
  release cannot build the class; 0.33 sets it first. The list of DeepStack
  layers is required: the remote config class's default is not known here.
* ``intern_s2_preview``: ``interns2_preview.py:InternS2PreviewForConditionalGeneration``,
  a ``Qwen3_5MoeForConditionalGeneration``; ``interns2_mobius``:
  ``interns2_mobius.py:InternS2MobiusForConditionalGeneration``, its own
  ``__init__`` over the same tower. Both inherit Qwen3.5's ``embed_multimodal``:
  the same width, and +5 on images with video pruning; neither sets
  ``video_pruning_method``, which ``_postprocess_video_embeds_evs`` reads, so a
  pruned video item fails (the registry says so). Published Qwen3.5-style
  vision configs list no DeepStack layers. Intern-S2-Preview's config also
  holds a ``ts_config`` (a time-series encoder; public code that reads the
  published file quotes its ``model_type``, ``intern_s2_preview``); vLLM maps
  its ``time_series.`` weights to nothing (``hf_to_vllm_mapper``) and ships no
  time-series item.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register

if TYPE_CHECKING:
    from ecwidth.engines.runtime import RuntimeOptions

_ENGINE_ONLY = "no transformers class can build this family (remote code, which ecwidth never runs)"
#: Channels ``qwen3_vl.py``'s ``_postprocess_*_embeds_evs`` append to every item with video pruning on.
PRUNING_CHANNELS = 5


class _Qwen3VisionTower(FamilyAdapter):
    """Shared: the raw config read as data; Qwen3-VL's DeepStack packing; pruning's 5 channels."""

    engine_only = True
    predicted_only = {"image": _ENGINE_ONLY, "video": _ENGINE_ONLY}
    width_fields = {
        "*": FieldWidth("vision_config.out_hidden_size", deepstack="vision_config.deepstack_visual_indexes")
    }
    look_alikes = ("vision_config.hidden_size", "text_config.hidden_size")

    def lm_hidden_size(self, config: Any) -> int:
        return int(config.text_config.hidden_size)

    def deepstack_levels(self, config: Any, modality: str) -> int:
        return len(getattr(config.vision_config, "deepstack_visual_indexes", None) or ())

    def option_channels(self, config: Any, modality: str, options: RuntimeOptions) -> int:
        return PRUNING_CHANNELS if options.pruning else 0


@register
class InternS1ProAdapter(_Qwen3VisionTower):
    model_types = ("interns1_pro",)
    required_fields = (
        "vision_config.out_hidden_size",
        "vision_config.deepstack_visual_indexes",
        "text_config.hidden_size",
    )


@register
class InternS2Adapter(_Qwen3VisionTower):
    model_types = ("intern_s2_preview", "interns2_mobius")
    required_fields = ("vision_config.out_hidden_size", "text_config.hidden_size")
