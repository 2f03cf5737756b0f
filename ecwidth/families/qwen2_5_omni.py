"""Qwen2.5-Omni thinker: image, video and audio, none packed.

vLLM's ``Qwen2_5OmniThinkerForConditionalGeneration.embed_multimodal`` ships,
per item:

- image and video: the Qwen2.5-VL vision tower's merger output (window order
  undone), ``vision_config.out_hidden_size`` wide (3584 for the 7B), not the
  tower's ``hidden_size`` (1280);
- audio: the audio tower's ``last_hidden_state``, after average pooling and
  ``proj``: ``audio_config.output_dim`` wide (3584), not ``d_model`` (1280).

There is no DeepStack: each width is one config field, but not the one a
reader may guess.

Token counts: images 3136 to 12845056 pixels (published preprocessor config,
16384 tokens at most at patch 14); video frames 100352 to 602112 pixels each
(the processor's default video size, 768 tokens a frame pair at most);
audio: a stride-2 convolution, then 2× average pooling. The minimal audio
item is three mel frames: two after the convolution, one after pooling.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families._qwen_omni import PROFILE_AUDIO_SECONDS, QwenOmniThinkerAdapter, ThinkerMel, ThinkerPatches
from ecwidth.families.adapter import register


def audio_tokens(config: Any, frames: int) -> int:
    """A stride-2 convolution, then 2× average pooling."""
    after_conv = (frames - 1) // 2 + 1
    return (after_conv - 2) // 2 + 1


@register
class Qwen2_5OmniAdapter(QwenOmniThinkerAdapter):
    model_types = ("qwen2_5_omni", "qwen2_5_omni_thinker")
    engine = (
        "vllm Qwen2_5OmniThinkerForConditionalGeneration (qwen2_5_omni_thinker.py): vision out_hidden_size, "
        "audio output_dim. It serves the whole omni config (architectures Qwen2_5OmniForConditionalGeneration, "
        "Qwen2_5OmniModel) and reads its thinker_config; a bare qwen2_5_omni_thinker config is no architecture "
        "vLLM takes, and is measured as that thinker, at the width the whole config ships"
    )
    model_class = "Qwen2_5OmniThinkerModel"
    required_fields = (
        "thinker_config.vision_config.out_hidden_size",
        "thinker_config.audio_config.output_dim",
        "thinker_config.text_config.hidden_size",
    )
    items = {
        "image": ThinkerPatches((3136, 12845056)),
        "video": ThinkerPatches((100352, 602112)),
        "audio": ThinkerMel(min_frames=3, profile_seconds=PROFILE_AUDIO_SECONDS, audio_tokens=audio_tokens),
    }
