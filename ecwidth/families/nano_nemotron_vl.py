"""Nemotron Nano VL V2 and the Nemotron 3 Omni checkpoints, as published (remote code): all at the text width.

One engine class serves the three architectures,
``nano_nemotron_vl.py:NemotronH_Nano_VL_V2``: images go through RADIO, a pixel
shuffle by ``downsample_ratio`` and ``mlp1`` (``vit_hidden_size x 4`` through
``projector_hidden_size`` to ``text_config.hidden_size``); a video item is the
frames' ``mlp1`` output merged by ``_create_final_video_embeddings`` with the
LM's embeddings of its frame indicator and separator tokens, the same width;
audio, where the config has a ``sound_config``, through
``parakeet.py:ProjectedParakeet``, whose ``ParakeetProjection`` ends at the
text width. vLLM reads the published ``llm_config`` as ``text_config``
(``_CONFIG_ATTRS_MAPPING``). Video pruning (``video_pruning_rate``) drops video
rows and appends no channels.

The published configs carry their own model types (``NemotronH_Nano_VL_V2``,
``NemotronH_Nano_Omni_Reasoning_V3``, ``NemotronH_Super_Omni_Reasoning_V3``),
which no transformers release knows, so the spec is the raw config read as
data (``engine_only``) and the widths are predicted. transformers' port,
``nemotron_h_omni`` (architecture ``NemotronH_Omni_Reasoning_V3``), is another
family (``nemotron_h_omni``), measured through transformers' classes.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import register
from ecwidth.families.internvl_chat import _TextWidth

_ENGINE_ONLY = "no transformers class can build this family (remote code, which ecwidth never runs)"


class _NanoNemotronVL(_TextWidth):
    """Images and videos always (``get_supported_mm_limits``); audio where ``sound_config`` is set."""

    look_alikes = ("vit_hidden_size", "projector_hidden_size")

    def predict(self, config: Any) -> dict[str, int]:
        width = self.lm_hidden_size(config)
        audio = getattr(config, "sound_config", None) is not None
        return {"image": width, "video": width, **({"audio": width} if audio else {})}


@register
class NemotronNanoVLV2Adapter(_NanoNemotronVL):
    model_types = ("NemotronH_Nano_VL_V2",)
    predicted_only = {"image": _ENGINE_ONLY, "video": _ENGINE_ONLY}


@register
class NemotronOmniReasoningAdapter(_NanoNemotronVL):
    model_types = ("NemotronH_Nano_Omni_Reasoning_V3", "NemotronH_Super_Omni_Reasoning_V3")
    predicted_only = {"image": _ENGINE_ONLY, "video": _ENGINE_ONLY, "audio": _ENGINE_ONLY}
