"""Step3-VL-10B (``step_robotics``): a Perception Encoder, two stride-2 convs and a projector to the LM's width.

vLLM's ``StepVLForConditionalGeneration`` (``step_vl.py``, a subclass of
``Step3VLForConditionalGeneration``) builds ``PerceptionEncoder`` at
``vision_config.width``, whose two stride-2 convs end at ``width × 4``, and
``vit_large_projector`` from there to ``text_config.hidden_size``
(``gather_output``); ``_process_image_features`` ships that projector's
output, and the inherited ``_process_image_input`` lays each image's crops out
as Step3-VL does. So each image ships ``text_config.hidden_size`` (a Qwen3
text config); ``vision_config.width`` only looks like it. Images only.

Engine only: the config is the checkpoint's remote code
(``configuration_step_vl.StepRoboticsConfig``, model type ``step_robotics``,
as Step3-VL-10B's hub pages are tagged), read as data; vLLM ships no config
class for it and picks the class by ``architectures``. The width is predicted.
"""

from __future__ import annotations

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import CHECKPOINT_CODE, EngineRuleAdapter


@register
class StepVLAdapter(EngineRuleAdapter):
    model_types = ("step_robotics",)
    why = CHECKPOINT_CODE
    required_fields = ("text_config.hidden_size", "vision_config.width")
    width_fields = {"image": FieldWidth("text_config.hidden_size")}
    look_alikes = ("vision_config.width",)
