"""Qwen2.5-Omni thinker: image, video and audio, none packed.

Each width is one config field, but not the one a reader may guess: vision
ships the Qwen2.5-VL merger's output (window order undone), not the tower's
``hidden_size``; audio ships the tower's ``last_hidden_state`` after average
pooling and ``proj``, not ``d_model``.

Token counts: images 3136 to 12845056 pixels (published preprocessor config,
16384 tokens at most at patch 14); video frames 100352 to 602112 pixels each
(the processor's default video size, 768 tokens a frame pair at most);
audio: a stride-2 convolution, then 2× average pooling. The minimal audio
item is three mel frames: two after the convolution, one after pooling.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families._qwen_omni import (
    PROFILE_AUDIO_SECONDS,
    THINKER_AUDIO,
    QwenOmniThinkerAdapter,
    ThinkerMel,
    ThinkerPatches,
    bare_thinker,
    bare_thinker_paths,
)
from ecwidth.families.adapter import FieldWidth, register

_VISION = FieldWidth("thinker_config.vision_config.out_hidden_size")


def audio_tokens(config: Any, frames: int) -> int:
    """A stride-2 convolution, then 2× average pooling."""
    after_conv = (frames - 1) // 2 + 1
    return (after_conv - 2) // 2 + 1


@register
class Qwen2_5OmniAdapter(QwenOmniThinkerAdapter):
    model_types = ("qwen2_5_omni",)
    model_class = "Qwen2_5OmniThinkerModel"
    items = {
        "image": ThinkerPatches((3136, 12845056)),
        "video": ThinkerPatches((100352, 602112)),
        "audio": ThinkerMel(min_frames=3, profile_seconds=PROFILE_AUDIO_SECONDS, audio_tokens=audio_tokens),
    }
    width_fields = {"image": _VISION, "video": _VISION, "audio": THINKER_AUDIO}


@register
class Qwen2_5OmniThinkerAdapter(Qwen2_5OmniAdapter):
    model_types = ("qwen2_5_omni_thinker",)
    width_fields = bare_thinker(Qwen2_5OmniAdapter.width_fields)
    look_alikes = bare_thinker_paths(Qwen2_5OmniAdapter.look_alikes)
