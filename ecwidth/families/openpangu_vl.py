"""openPangu-VL (``openpangu_vl``): a windowed ViT, summed mergers, then one more projection to the LM's width.

Engine only: the config is the checkpoint's remote code (a flat LM config with
a ``vision_config``), read as data; the width is predicted.

``OpenPanguVisionTransformer.forward`` (``openpangu_vl.py``) sums its
``merger`` outputs (``vision_config.out_hidden_size`` wide) over the selected
layers, then applies ``vision_projection``, a ``ProjectionSingle`` (SiLU and
one linear) from ``out_hidden_size`` to the ``hidden_size`` the class passes
in, which is the config's top-level (LM) ``hidden_size``
(``OpenPanguVLForConditionalGeneration.__init__``). So images and videos ship
the top-level ``hidden_size``; ``vision_config.out_hidden_size`` and
``vision_config.hidden_size`` only look like it.
"""

from __future__ import annotations

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import CHECKPOINT_CODE, EngineRuleAdapter


@register
class OpenPanguVLAdapter(EngineRuleAdapter):
    model_types = ("openpangu_vl",)
    shipped = ("image", "video")
    why = CHECKPOINT_CODE
    required_fields = ("hidden_size",)
    width_fields = {"*": FieldWidth("hidden_size")}
    look_alikes = ("vision_config.out_hidden_size", "vision_config.hidden_size")
