"""MiMo-V2 Omni (``mimo_v2`` with encoders): vision at ``vision_config.out_hidden_size``, audio at ``audio_config.out_hidden_size``.

The published MiMo-V2.5 config is the ``mimo_v2`` language model's with a
``vision_config`` and an ``audio_config`` beside it. vLLM serves the encoders
only through ``MiMoV2OmniForCausalLM`` (``mimo_v2_omni.py``), which a config
reaches by naming it in ``architectures`` (``--hf-overrides``); under its own
``MiMoV2ForCausalLM`` the engine runs the text model alone.

Images and videos: ``MiMoVisionTransformer`` ends in ``MiMoVisionPatchMerger``
(``spatial_merge_size``² patches, ``ln_q``, two linears to ``d_model`` =
``vision_config.out_hidden_size``; ``Mimo_VLVisionConfig`` defaults it to
2048). ``_process_image_input``/``_process_video_input`` split the merged rows
per item; a video with its audio track is shipped as frames and audio groups,
each an item at its own modality's width. Audio: ``MimoAudioEncoder``
(``mimo_audio.py``) ends in ``projection`` to ``audio_config.out_hidden_size``
(``MimoAudioEncoderConfig`` defaults it to 4096); a config without
``audio_config`` (or with it null) has no audio encoder. A ``mimo_v2`` config
without ``vision_config`` is the text-only MiMo-V2, which has no encoder.

The model is remote code; transformers knows no ``mimo_v2``, so the spec is
the raw config (``engine_only``) and the widths are predicted, never measured.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import register
from ecwidth.families.engine_rule import REMOTE_CODE, EngineRuleAdapter

#: ``Mimo_VLVisionConfig``'s and ``MimoAudioEncoderConfig``'s default ``out_hidden_size``.
DEFAULT_VISION_OUT, DEFAULT_AUDIO_OUT = 2048, 4096


@register
class MiMoV2OmniAdapter(EngineRuleAdapter):
    model_types = ("mimo_v2",)
    required_fields = ("vision_config",)
    shipped = ("image", "video", "audio")
    why = REMOTE_CODE
    look_alikes = ("vision_config.hidden_size", "audio_config.input_local_dim")

    def predict(self, config: Any) -> dict[str, int]:
        vision = int(getattr(config.vision_config, "out_hidden_size", DEFAULT_VISION_OUT))
        widths = {"image": vision, "video": vision}
        audio = getattr(config, "audio_config", None)
        if audio is not None:
            widths["audio"] = int(getattr(audio, "out_hidden_size", DEFAULT_AUDIO_OUT))
        return widths
