"""What an engine that sizes transfers from the config allocates, beside what its tower ships.

SGLang 0.5.23 does not measure: its encoder server publishes ``tokens × dim ×
bytes`` before the forward, with ``dim`` from a formula over the config
(``MMEncoder._infer_embedding_dims`` in ``sglang/srt/disaggregation/encoder/server.py``),
and fails the request when the real tensor differs (``_embedding_state_for_stage``).
The formula, restated: every modality starts at the language model's
``hidden_size``; a vision config (the thinker's, else the top level's) with
``out_hidden_size`` sets image and video to it times ``1 + len(deepstack_visual_indexes)``;
an audio config sets audio to the first positive of ``output_dim`` and ``d_model``.
Where that differs from the shipped width, every request of the modality fails.
"""

from __future__ import annotations

from typing import Any

from ecwidth.engines.releases import SGLANG_0_5_23, Release
from ecwidth.engines.text_config import text_config_of


def _positive(value: Any) -> int | None:
    return int(value) if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def sglang_sizes(config: Any) -> dict[str, int]:
    """``{image, video, audio: dim}`` as SGLang 0.5.23's encoder server sizes them for ``config``."""
    text = text_config_of(config)
    default = int(text.hidden_size)
    dims = dict.fromkeys(("image", "video", "audio"), default)
    thinker = getattr(config, "thinker_config", None)
    vision = getattr(thinker, "vision_config", None) or getattr(config, "vision_config", None)
    out = _positive(getattr(vision, "out_hidden_size", None)) if vision is not None else None
    if out is not None:
        levels = getattr(vision, "deepstack_visual_indexes", None)
        dims["image"] = dims["video"] = out * (1 + len(levels)) if isinstance(levels, (list, tuple)) else out
    audio = getattr(thinker, "audio_config", None) or getattr(config, "audio_config", None)
    if audio is not None:
        for name in ("output_dim", "d_model"):
            if (value := _positive(getattr(audio, name, None))) is not None:
                dims["audio"] = value
                break
    return dims


#: Each sizing release's formula.
_SIZERS = {SGLANG_0_5_23: sglang_sizes}


def engine_sizes(release: Release, config: Any, keys: list[str]) -> dict[str, int]:
    """``{engine key: what release allocates}`` for the modality ``keys`` it ships; ``{}`` for an engine
    that measures (vLLM), whose allocation is the shipped width by construction."""
    sizer = _SIZERS.get(release)
    if sizer is None:
        return {}
    sizes = sizer(config)
    return {key: sizes[key] for key in keys if key in sizes}


def undersized(model: str, release: Release, key: str, allocated: int, shipped: int) -> str:
    """The warning for a sizing engine whose formula allocates ``allocated`` where the tower ships ``shipped``."""
    return (
        f"{model}: {release} sizes {key} transfers at {allocated} from the config while the tower ships "
        f"{shipped}, so every {key} request fails its size check"
    )
