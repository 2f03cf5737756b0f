"""Step5-VL (``step5_vl``): Step3p7's vision frontend on the Step5 language model; engine only, so predicted.

The engine's class is Step3p7's with another language model: the Perception
Encoder's global view and 504-pixel crops, two conv downsamplers (``width ×
4``), one linear to the text width, images only. Its config class is the
engine's own; transformers knows no ``step5_vl`` config or Step5 model, so
the spec is the raw config (``engine_only``) and the width is predicted from
the engine's rule, never measured. transformers' Step3p7 tower is the same
frontend, but its classes take Step3p7's config, not this one.
"""

from __future__ import annotations

from ecwidth.families.adapter import register
from ecwidth.families.engine_rule import EngineRuleAdapter


@register
class Step5VLAdapter(EngineRuleAdapter):
    model_types = ("step5_vl",)
    look_alikes = ("vision_config.width",)
