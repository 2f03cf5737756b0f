"""What the cost benchmark measures by default, the targets it checks, and the check of each."""

from __future__ import annotations

from typing import Any

#: Qwen3-VL-8B: DeepStack, 576M-parameter tower (the "~600M" target). Qwen2.5-VL-7B: window
#: attention, 677M. Llama-4-Scout: the catalog's largest vision tower, 872M with its projector
#: (tiles; its minimal item is a one-token tile). Qwen3-Omni: the largest encoder overall,
#: 1187M over its vision and audio towers, three modalities. Counted from the meta build.
DEFAULT_MODELS = (
    "qwen3-vl-8b-instruct",
    "qwen2-5-vl-7b-instruct",
    "llama-4-scout-17b-16e-instruct",
    "qwen3-omni-30b-a3b-instruct",
)
#: Tokens per profile item on a CPU: up to a minute per run at these sizes on 2 cores, and enough
#: work that the measured ratio, not only the extrapolated one, shows the gap.
DEFAULT_CPU_CAP = 1024
PREDICT_REPEATS = 20
BANDWIDTH_BYTES = 512 * 2**20
PAGE = 4096

SURVEY_LIMIT_S = 120.0
SURVEY_RSS_LIMIT = 6 * 10**9
MINIMAL_LIMIT_S = 2.0
TIME_RATIO_TARGET = 100.0
MEMORY_RATIO_TARGET = 10.0
PREDICT_LIMIT_S = 0.010
SURVEY_OVER_FLOOR_LIMIT = 1.5
CATALOG_MEDIAN_LIMIT_S = 0.040
CATALOG_WORST_LIMIT_S = 0.150
LOOKUP_RATIO_LIMIT = 5.0
PROFILE_ITEM_LIMIT_S = 3.0
#: Where a family cannot count the real profile item's tokens (its width still measures).
NO_TOKEN_RULE = "no token rule for this family"


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    """``numerator / denominator``; ``None`` where either is unknown (or the denominator is 0)."""
    return None if numerator is None or not denominator else numerator / denominator


def targets(entries: list[dict[str, Any]], survey: dict[str, Any] | None, floors: dict[str, Any] | None = None
            ) -> dict[str, dict[str, Any]]:  # fmt: skip
    """Each issue-6 and issue-16 target with the measured value and whether it is met (``None``: not measured)."""
    floors = floors or {}
    result: dict[str, dict[str, Any]] = {}

    def add(key: str, text: str, value: float | None, limit: float, below: bool) -> None:
        met = None if value is None else (value < limit if below else value >= limit)
        result[key] = {"target": text, "value": value, "limit": limit, "met": met}

    add("survey_s", "full catalog survey, imports included (s)", survey and survey["wall_s"], SURVEY_LIMIT_S, True)
    add("survey_peak_rss_bytes", "full catalog survey peak RSS (bytes)",
        survey and survey["peak_rss_bytes"], SURVEY_RSS_LIMIT, True)  # fmt: skip
    for entry in entries:
        name = entry["model"]
        params = f"{entry['encoder_parameters'] / 1e6:.0f}M"  # the target is stated for a ~600M tower
        add(f"{name}:minimal_s", f"{name}: build + minimal measurement, {params}-parameter encoder (s)",
            entry["minimal"]["build_s"] + entry["minimal"]["encode_s"], MINIMAL_LIMIT_S, True)  # fmt: skip
        add(f"{name}:time_ratio", f"{name}: profile / minimal time (capped profile)",
            entry["profile_over_minimal_time"], TIME_RATIO_TARGET, False)  # fmt: skip
        add(f"{name}:time_ratio_extrapolated", f"{name}: profile / minimal time (linear to real profile)",
            entry["profile_over_minimal_time_extrapolated"], TIME_RATIO_TARGET, False)  # fmt: skip
        add(f"{name}:memory_ratio", f"{name}: profile / minimal peak memory above the weights",
            entry["profile_over_minimal_memory"], MEMORY_RATIO_TARGET, False)  # fmt: skip
        add(f"{name}:predict_s", f"{name}: predict (s)", entry["predict_s"], PREDICT_LIMIT_S, True)
        add(f"{name}:profile_on_meta_s", f"{name}: the real profile item through meta execution, worst item (s)",
            entry["profile_on_meta"]["worst_item_s"], PROFILE_ITEM_LIMIT_S, True)  # fmt: skip
    floor, catalog, lookup = floors.get("import_floor"), floors.get("catalog"), floors.get("lookup")
    add("survey_over_import_floor", "cold whole-catalog survey / import floor",
        ratio(survey and survey["wall_s"], floor and floor["wall_s"]), SURVEY_OVER_FLOOR_LIMIT, True)  # fmt: skip
    faithful = (catalog or {}).get("shape_faithful")
    add("catalog_minimal_median_s", "build + minimal measurement, median over the catalog, after imports (s)",
        faithful and faithful["median_s"], CATALOG_MEDIAN_LIMIT_S, True)  # fmt: skip
    add("catalog_minimal_worst_s", "build + minimal measurement, worst model of the catalog, after imports (s)",
        faithful and faithful["worst_s"], CATALOG_WORST_LIMIT_S, True)  # fmt: skip
    add("lookup_over_python_pass", "`ecwidth lookup` / `python -c pass`",
        lookup and lookup["ratio"], LOOKUP_RATIO_LIMIT, True)  # fmt: skip
    return result
