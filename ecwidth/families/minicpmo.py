"""MiniCPM-o 2.6 and 4.5 (``minicpmo``): MiniCPM-V's resampler for images and video, an audio projector, one width.

Engine only, like MiniCPM-V (``ecwidth.families.minicpmv``): the config is the
checkpoint's remote code, read as data, and the width is predicted.

Images and video are MiniCPM-V's: the resampler's queries at the top-level
``hidden_size``. Audio (``MiniCPMOBaseModel.init_audio_module``,
``minicpmo.py``) runs the Whisper encoder (``audio_config.d_model``), then
``audio_projection_layer``, a ``MultiModalProjector`` from
``audio_config.encoder_ffn_dim // 4`` to ``self.embed_dim``, which is
``config.hidden_size``, then an average pool over time
(``audio_pool_step``) that keeps the width. So every modality ships
``hidden_size``; ``audio_config.d_model`` only looks like it.

The class is picked by ``version`` (``MiniCPMO.__new__``): 2.6 (the default
where the config has none) and 4.5; others are refused. Both take video,
but the processing info reads the version without that default
(``get_version_by_config``, 2.5 for a config without one), so a config
without ``version`` is served images and audio only.
"""

from __future__ import annotations

from ecwidth.families.adapter import register
from ecwidth.families.minicpmv import MiniCPMVAdapter


@register
class MiniCPMOAdapter(MiniCPMVAdapter):
    model_types = ("minicpmo",)
    shipped = ("image", "video", "audio")
    look_alikes = ("vision_config.hidden_size", "audio_config.d_model")

    versions = ((2, 6), (4, 5))  # _MINICPMO_SUPPORT_VERSION
    video_versions = ((2, 6), (4, 5))
    default_version = (2, 6)

    def served_modalities(self, config):
        return (*super().served_modalities(config), "audio")
