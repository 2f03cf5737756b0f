"""Qwen3-Omni-MoE thinker: DeepStack vision packed as Qwen3-VL, audio shipped unpacked.

One model, two widths: the vision tower packs one merger output per DeepStack
layer after the main one, in layer order, on the last dim; the audio tower's
output after ``proj2`` is not packed. A single width per model breaks the
audio or the vision transfers. transformers returns the DeepStack maps
separately; we pack them as the engine does.

Token counts: images 3136 to 12845056 pixels (published preprocessor
config, 12544 tokens at most at patch 16); video frames 131072 to 786432
pixels each (the processor's default video size, 768 tokens a frame pair
at most); audio in 100-frame chunks of 13 tokens each. The minimal audio
item is one mel frame (160 samples): the three stride-2 convolutions keep
it as one embedding.
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
    thinker_config,
)
from ecwidth.families.adapter import FieldWidth, register

_VISION = FieldWidth(
    "thinker_config.vision_config.out_hidden_size", deepstack="thinker_config.vision_config.deepstack_visual_indexes"
)


def _halve_thrice(length: int) -> int:
    """Length after the audio tower's three stride-2, padding-1 convolutions."""
    for _ in range(3):
        length = (length - 1) // 2 + 1
    return length


def audio_tokens(config: Any, frames: int) -> int:
    """The tower convolves fixed chunks of ``2 × n_window`` frames, then the tail."""
    chunk = 2 * thinker_config(config).audio_config.n_window
    return frames // chunk * _halve_thrice(chunk) + _halve_thrice(frames % chunk)


@register
class Qwen3OmniMoeAdapter(QwenOmniThinkerAdapter):
    model_types = ("qwen3_omni_moe",)
    model_class = "Qwen3OmniMoeThinkerModel"
    # Without deepstack_visual_indexes transformers would silently fill in (8, 16, 24).
    required_fields = (
        QwenOmniThinkerAdapter.required_fields[0],
        "thinker_config.vision_config.deepstack_visual_indexes",
        *QwenOmniThinkerAdapter.required_fields[1:],
    )
    items = {
        "image": ThinkerPatches((3136, 12845056)),
        "video": ThinkerPatches((131072, 786432)),
        "audio": ThinkerMel(min_frames=1, profile_seconds=PROFILE_AUDIO_SECONDS, audio_tokens=audio_tokens),
    }
    width_fields = {"image": _VISION, "video": _VISION, "audio": THINKER_AUDIO}
    look_alikes = ("thinker_config.vision_config.out_hidden_size", *QwenOmniThinkerAdapter.look_alikes)

    def deepstack_levels(self, config: Any, modality: str) -> int:
        if modality == "audio":
            return 0
        return len(thinker_config(config).vision_config.deepstack_visual_indexes or ())


@register
class Qwen3OmniMoeThinkerAdapter(Qwen3OmniMoeAdapter):
    model_types = ("qwen3_omni_moe_thinker",)
    width_fields = bare_thinker(Qwen3OmniMoeAdapter.width_fields)
    look_alikes = bare_thinker_paths(Qwen3OmniMoeAdapter.look_alikes)
