"""DeepStack variants of real published configs, measured: how packing alone grows the width.

``variant`` rewrites a real published config to 0..N DeepStack levels and
leaves the rest of the architecture as published, so width growth is
measured on real architectures rather than assumed.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from ecwidth.errors import ConfigError
from ecwidth.reading.catalog import catalog_entry
from ecwidth.reading.configs import resolve_spec
from ecwidth.study.rules import VISION_MODALITIES, vision_out_hidden_size

GROWTH_COLUMNS = (
    "model", "levels", "published_levels", "deepstack_visual_indexes", "modality", "encoder_width", "out_hidden_size",
    "expected_width", "width_pruning_on", "lm_hidden_size", "width_over_hidden", "build_s", "encode_s",
)  # fmt: skip


def _vision_config(raw: dict[str, Any]) -> dict[str, Any]:
    """The (mutable) vision config dict that holds ``deepstack_visual_indexes``."""
    for holder in (raw, raw.get("thinker_config")):
        vision = holder.get("vision_config") if isinstance(holder, dict) else None
        if isinstance(vision, dict) and "deepstack_visual_indexes" in vision:
            return vision
    raise ConfigError(
        f"model_type {raw.get('model_type')!r} has no DeepStack vision config (no "
        "vision_config.deepstack_visual_indexes); DeepStack variants need a DeepStack family such as qwen3_vl"
    )


def level_indexes(depth: int, levels: int) -> list[int]:
    """``levels`` distinct vision-layer indexes spread evenly below ``depth``.

    ``level_indexes(24, 3) == [5, 11, 17]``, the published Qwen3-VL-2B/4B choice.

    Raises:
        ValueError: ``levels`` is negative or more than ``depth`` layers.
    """
    if not 0 <= levels <= depth:
        raise ValueError(f"a vision tower of depth {depth} has room for 0..{depth} DeepStack levels, not {levels}")
    return [(i + 1) * depth // (levels + 1) - 1 if levels < depth else i for i in range(levels)]


def variant(raw_config: Mapping[str, Any], levels: int) -> dict[str, Any]:
    """A deep copy of a real raw config with ``levels`` DeepStack levels (indexes below the vision depth).

    Everything else is the published architecture, so measuring the variant
    shows what DeepStack packing alone does to the width.

    Raises:
        ConfigError: The config is not a DeepStack family, or has no vision depth.
        ValueError: ``levels`` does not fit the vision depth.
    """
    raw = copy.deepcopy(dict(raw_config))
    vision = _vision_config(raw)
    depth = vision.get("depth", vision.get("num_hidden_layers"))
    if not isinstance(depth, int) or depth <= 0:
        raise ConfigError("the DeepStack vision config has no positive 'depth' to place levels below")
    vision["deepstack_visual_indexes"] = level_indexes(depth, levels)
    return raw


def measure_growth(
    model: str,
    levels: Iterable[int] = range(6),
    *,
    modalities: Iterable[str] | None = None,
    device: str = "auto",
    dtype: str = "auto",
    video_pruning_rate: float = 0.0,
) -> pd.DataFrame:
    """Measure ``model`` (a DeepStack catalog model) rebuilt with each number of DeepStack ``levels``.

    ``expected_width`` is ``out_hidden_size × (1 + levels)`` for vision
    modalities, to be compared with the measured ``encoder_width``; it is NaN
    for modalities the vision tower does not serve. With ``video_pruning_rate``
    above 0, each variant is measured again with video pruning on and
    ``width_pruning_on`` holds that width beside the levels (NA otherwise): the
    channels the engine appends come on top of every level. ``published_levels`` is the
    published config's own count. Columns are ``GROWTH_COLUMNS``.

    Raises:
        ConfigError: ``model`` is not a DeepStack catalog model.
        ValueError: A level count does not fit the vision depth.
        EncodeError: Encoding a variant failed.
        UnsupportedOptionError: The family does not take video pruning, or ``video_pruning_rate`` is out of range.
    """
    from ecwidth.measuring.measure import measure

    raw = catalog_entry(model).config
    published = len(_vision_config(raw)["deepstack_visual_indexes"])
    records = []
    for count in levels:
        rewritten = variant(raw, count)
        spec = resolve_spec(rewritten)
        chosen = None if modalities is None else list(modalities)
        result = measure(spec, chosen, device=device, dtype=dtype)
        pruned = (
            measure(spec, chosen, device=device, dtype=dtype, video_pruning_rate=video_pruning_rate).widths
            if video_pruning_rate > 0
            else {}
        )
        out = vision_out_hidden_size(spec)
        indexes = _vision_config(rewritten)["deepstack_visual_indexes"]
        for modality, width in sorted(result.widths.items()):
            expected = out * (1 + count) if out is not None and modality in VISION_MODALITIES else None
            records.append(
                {
                    "model": model,
                    "levels": count,
                    "published_levels": published,
                    "deepstack_visual_indexes": list(indexes),
                    "modality": modality,
                    "encoder_width": width,
                    "out_hidden_size": out,
                    "expected_width": expected,
                    "width_pruning_on": pruned.get(modality),
                    "lm_hidden_size": result.lm_hidden_size,
                    "width_over_hidden": width / result.lm_hidden_size,
                    "build_s": result.build_s,
                    "encode_s": result.encode_s,
                }
            )
    frame = pd.DataFrame(records, columns=list(GROWTH_COLUMNS))
    frame["expected_width"] = frame["expected_width"].astype("Int64")
    frame["width_pruning_on"] = frame["width_pruning_on"].astype("Int64")
    return frame
