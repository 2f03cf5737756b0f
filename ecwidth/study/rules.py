"""The rules serving stacks use to size EC transfer buffers, checked against measured widths.

A producer sizes every transfer buffer before it encodes its first real item,
so it needs a width from somewhere. Stacks have used, over time:

- the text ``hidden_size`` (the "embeddings go into the LM, so they are LM-wide" guess);
- the vision ``out_hidden_size`` (the merger's output);
- ``out_hidden_size × (1 + DeepStack levels)`` (the DeepStack fix);
- a projector output field where the config has one (Llama-4 ``projector_output_dim``,
  Qwen3-Omni audio ``output_dim``);
- SGLang 0.5.23's encoder server, which publishes sizes from a config formula
  (``ecwidth.engines.sizers``) and fails the request when the tensor differs;
- ecwidth's own prediction from the config.

Each rule is a function of a config (anything ``ecwidth.reading.configs.resolve_spec``
takes: a catalog name, path, raw dict, ModelSpec or transformers config) and a
modality, returning an int, or ``None`` where the rule does not apply to that
config. A rule that reads one config number gives the same width for every
modality, exactly as a stack that keeps one width per model does.

A rule reads the config alone, so it cannot see the engine's runtime
options: with video pruning on, the Qwen2.5-VL and Qwen3-VL towers append
position channels and every config formula falls a few channels short.
``compare_with_pruning`` measures that case; only ecwidth's prediction, which
takes the options, follows it.

``compare_rules`` puts every rule against measured widths. The sign of the
error matters: a rule that under-allocates truncates or overruns the buffer
(a crash, or silent corruption); one that over-allocates wastes memory.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ecwidth.engines.releases import DEFAULT, SGLANG_0_5_23
from ecwidth.engines.runtime import RuntimeOptions, describe_options
from ecwidth.engines.sizers import sglang_sizes
from ecwidth.errors import TableError
from ecwidth.families.adapter import find_adapter
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import ModelSpec, resolve_spec
from ecwidth.records.table import WidthTable
from ecwidth.study.labels import packing_mark, row_label

#: Modalities served by the vision tower (image and video share it in every family here).
VISION_MODALITIES = ("image", "video")

UNDER = "under"
OVER = "over"
EXACT = "exact"
NOT_APPLICABLE = "n/a"
CONSEQUENCES = {
    UNDER: "crash or corruption",
    OVER: "wasted memory",
    EXACT: "",
    NOT_APPLICABLE: "rule does not apply",
}

COMPARISON_COLUMNS = (
    "model", "modality", "options", "deepstack_levels", "lm_hidden_size", "measured_width", "rule", "rule_width",
    "relative_error", "measured_over_rule", "verdict", "consequence",
)  # fmt: skip


# -- config access ---------------------------------------------------------------


def _sub_config(config: Any, name: str) -> Any:
    """``config.<name>``, or the one inside an omni ``thinker_config``; ``None`` where absent."""
    sub = getattr(config, name, None)
    if sub is None:
        thinker = getattr(config, "thinker_config", None)
        sub = getattr(thinker, name, None) if thinker is not None else None
    return sub


def _positive_int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        return None
    return value


def config_deepstack_levels(config: Any) -> int:
    """DeepStack levels the vision config declares (``len(deepstack_visual_indexes)``); 0 where none."""
    vision = _sub_config(resolve_spec(config).config, "vision_config")
    return len(getattr(vision, "deepstack_visual_indexes", None) or ()) if vision is not None else 0


# -- the rules ---------------------------------------------------------------------


def text_hidden_size(config: Any, modality: str | None = None) -> int | None:
    """The language model's ``hidden_size``: the naive guess. Same for every modality."""
    text = resolve_spec(config).config.get_text_config()
    return _positive_int(getattr(text, "hidden_size", None))


def vision_out_hidden_size(config: Any, modality: str | None = None) -> int | None:
    """The vision config's ``out_hidden_size`` (merger output); ``None`` where the config has no such field."""
    vision = _sub_config(resolve_spec(config).config, "vision_config")
    return _positive_int(getattr(vision, "out_hidden_size", None)) if vision is not None else None


def out_hidden_size_with_deepstack(config: Any, modality: str | None = None) -> int | None:
    """``out_hidden_size × (1 + len(deepstack_visual_indexes))``; ``None`` without ``out_hidden_size``."""
    spec = resolve_spec(config)
    out = vision_out_hidden_size(spec)
    return None if out is None else out * (1 + config_deepstack_levels(spec))


def projector_output_field(config: Any, modality: str | None = None) -> int | None:
    """The projector output field of the modality's encoder config, where the config has one.

    Vision modalities read ``vision_config.projector_output_dim`` (Llama-4) or a
    top-level ``projector_output_dim``; audio reads ``audio_config.output_dim``
    (Qwen3-Omni). ``None`` elsewhere, and for every modality when ``modality`` is None.
    """
    config = resolve_spec(config).config
    if modality in VISION_MODALITIES:
        vision = _sub_config(config, "vision_config")
        value = getattr(vision, "projector_output_dim", None) if vision is not None else None
        return _positive_int(value if value is not None else getattr(config, "projector_output_dim", None))
    if modality == "audio":
        audio = _sub_config(config, "audio_config")
        return _positive_int(getattr(audio, "output_dim", None)) if audio is not None else None
    return None


def ecwidth_prediction(config: Any, modality: str | None = None, *, video_pruning_rate: float = 0.0) -> int | None:
    """ecwidth's per-family prediction from the config and the runtime options; ``None`` without an adapter."""
    config = resolve_spec(config).config
    if find_adapter(getattr(config, "model_type", "")) is None or modality is None:
        return None
    return _positive_int(predict_widths(config, video_pruning_rate=video_pruning_rate).get(modality))


def sglang_sizer(config: Any, modality: str | None = None) -> int | None:
    """What SGLang 0.5.23's encoder server allocates (``ecwidth.engines.sizers.sglang_sizes``) for the
    modalities it serves; ``None`` where it runs no encoder disaggregation for the model type."""
    spec = resolve_spec(config)
    adapter = find_adapter(spec.model_type)
    if adapter is None or modality is None:
        return None
    record = adapter.serving_for(SGLANG_0_5_23)
    if not record.serves or modality in record.unserved:
        return None
    return sglang_sizes(spec.config).get(record.keys.get(modality, modality))


@dataclass(frozen=True)
class SizingRule:
    """One way a serving stack sizes EC transfers: a name for tables and the function that applies it.

    ``takes_options``: ``width`` also takes the row's runtime options as keywords;
    the config formulas do not, which is what they miss with pruning on.
    """

    name: str
    description: str
    width: Callable[..., int | None]
    takes_options: bool = False


RULES: tuple[SizingRule, ...] = (
    SizingRule("text hidden_size", "LM hidden_size, one width per model", text_hidden_size),
    SizingRule("vision out_hidden_size", "vision merger output, one width per model", vision_out_hidden_size),
    SizingRule(
        "out_hidden_size × (1 + DeepStack)",
        "merger output times the DeepStack levels plus one, one width per model",
        out_hidden_size_with_deepstack,
    ),
    SizingRule(
        "projector output field", "projector_output_dim / audio output_dim, per modality", projector_output_field
    ),
    SizingRule(
        "SGLang 0.5.23 sizer",
        "SGLang's encoder server: the config formula it publishes sizes from, where it serves the model",
        sglang_sizer,
    ),
    SizingRule(
        "ecwidth prediction",
        "ecwidth's per-family, per-modality prediction, with the runtime options",
        ecwidth_prediction,
        takes_options=True,
    ),
)
RULE_NAMES: tuple[str, ...] = tuple(rule.name for rule in RULES)


# -- rules against measurement -----------------------------------------------------------


def classify(rule_width: int | None, measured_width: int) -> tuple[float, float, str]:
    """``(relative_error, measured_over_rule, verdict)`` of one rule width against the measured one.

    ``relative_error`` is signed, ``(rule - measured) / measured``: −0.75 means the
    buffer is 4× too small; +3.0 means 4× too large. NaN where the rule does not apply.
    """
    if rule_width is None:
        return math.nan, math.nan, NOT_APPLICABLE
    error = (rule_width - measured_width) / measured_width
    verdict = EXACT if rule_width == measured_width else UNDER if rule_width < measured_width else OVER
    return error, measured_width / rule_width, verdict


def _measured_rows(table: WidthTable) -> list[Any]:
    predicted = sorted({(row.model, row.modality) for row in table if row.source != "measured"})
    if predicted:
        raise TableError(
            f"sizing rules are compared with measured widths, but {len(predicted)} row(s) are predicted: "
            f"{predicted[:5]}. Measure the models first (ecwidth.measuring.survey.survey)."
        )
    return list(table)


def compare_rules(
    table: WidthTable,
    *,
    rules: Iterable[SizingRule] = RULES,
    specs: Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """Every rule against every measured (model, modality) of ``table``, one row per pair and rule.

    Columns are ``COMPARISON_COLUMNS``; ``options`` names the runtime options a
    row was measured with ("engine defaults" when none). ``specs`` maps a table model name to its
    config (anything ``resolve_spec`` takes); catalog names resolve by themselves.

    Raises:
        TableError: A row of the table is predicted, not measured.
        ConfigError: A model is neither in ``specs`` nor in the catalog.
    """
    rules = tuple(rules)
    specs = specs or {}
    resolved: dict[str, ModelSpec] = {}
    records = []
    for row in _measured_rows(table):
        if row.model not in resolved:
            resolved[row.model] = resolve_spec(specs.get(row.model, row.model))
        for rule in rules:
            options = row.options if rule.takes_options else {}
            width = rule.width(resolved[row.model], row.modality, **options)
            error, factor, verdict = classify(width, row.encoder_width)
            records.append(
                {
                    "model": row.model,
                    "modality": row.modality,
                    "options": describe_options(row.options),
                    "deepstack_levels": row.deepstack_levels,
                    "lm_hidden_size": row.lm_hidden_size,
                    "measured_width": row.encoder_width,
                    "rule": rule.name,
                    "rule_width": pd.NA if width is None else width,
                    "relative_error": error,
                    "measured_over_rule": factor,
                    "verdict": verdict,
                    "consequence": CONSEQUENCES[verdict],
                }
            )
    frame = pd.DataFrame(records, columns=list(COMPARISON_COLUMNS))
    frame["rule_width"] = frame["rule_width"].astype("Int64")
    return frame


def rule_matrix(comparison: pd.DataFrame, *, value: str = "relative_error", collapse: bool = True) -> pd.DataFrame:
    """Pivot ``compare_rules`` output to rows × rules of ``value`` (signed relative error by default).

    With ``collapse``, a model's modalities whose measured width and every rule
    width agree share one row ("model (image, video)"). Rows are labelled by
    ``row_label``, so packed models carry a ◆ mark; rule columns keep their order.
    """
    rules = list(dict.fromkeys(comparison["rule"]))
    groups: dict[tuple, list[str]] = {}
    cells: dict[tuple, list[float]] = {}
    for (model, modality, options), part in comparison.groupby(["model", "modality", "options"], sort=False):
        part = part.set_index("rule").reindex(rules)
        levels = int(part["deepstack_levels"].dropna().iloc[0])
        measured = int(part["measured_width"].dropna().iloc[0])
        mark = packing_mark(levels, measured, int(part["lm_hidden_size"].dropna().iloc[0]))
        widths = tuple(-1 if pd.isna(w) else int(w) for w in part["rule_width"])
        signature = (model, mark, options, measured) + (widths if collapse else (modality,))
        groups.setdefault(signature, []).append(modality)
        cells[signature] = [float(v) for v in part[value]]
    matrix = pd.DataFrame(
        [cells[key] for key in groups],
        index=[row_label(key[0], groups[key], key[1], key[2]) for key in groups],
        columns=rules,
    )
    matrix.columns.name = "rule"
    return matrix


def rule_summary(comparison: pd.DataFrame) -> pd.DataFrame:
    """Per rule: how many (model, modality) pairs it sizes exactly, under, over, or not at all, and its worst miss."""
    counts = pd.crosstab(comparison["rule"], comparison["verdict"])
    counts = counts.reindex(index=list(dict.fromkeys(comparison["rule"])), columns=[EXACT, UNDER, OVER, NOT_APPLICABLE])
    counts = counts.fillna(0).astype(int)
    applied = comparison[comparison["verdict"] != NOT_APPLICABLE].groupby("rule", sort=False)
    counts["worst_under_factor"] = applied["measured_over_rule"].max().where(lambda f: f > 1)
    counts["worst_over_factor"] = (1 / applied["measured_over_rule"].min()).where(lambda f: f > 1)
    counts.columns.name = None
    return counts


def misses(comparison: pd.DataFrame) -> pd.DataFrame:
    """Only the rows where a rule under- or over-allocates, worst first (under before over)."""
    wrong = comparison[comparison["verdict"].isin([UNDER, OVER])].copy()
    wrong["_order"] = (wrong["verdict"] == OVER).astype(int)
    wrong["_size"] = -wrong["relative_error"].abs()
    return wrong.sort_values(["_order", "_size", "model", "modality"]).drop(columns=["_order", "_size"])


def compare_with_pruning(
    models: Any = "all",
    *,
    video_pruning_rate: float = 0.5,
    device: str = "auto",
    dtype: str = "auto",
    progress: bool = True,
    allow_failures: bool = False,
) -> pd.DataFrame:
    """The case "config formula, pruning on": every rule against widths measured with video pruning set.

    Only the selected models whose engine class takes the option are measured
    (``ecwidth.measuring.survey.takes_options``); the config formulas cannot see it, so
    where the engine appends channels they under-allocate. Columns are
    ``COMPARISON_COLUMNS``; no model takes the option: an empty frame.

    Raises:
        ConfigError: A model cannot be found (see ``ecwidth.study.notebook.select_models``).
        UnsupportedOptionError: ``video_pruning_rate`` is out of range.
        EcwidthError: Measuring failed for some model and ``allow_failures`` is off.
    """
    from ecwidth.measuring.survey import survey, takes_options
    from ecwidth.study.notebook import check_survey, select_models

    chosen = {
        name: model
        for name, model in select_models(models).items()
        if takes_options(model, RuntimeOptions(video_pruning_rate=video_pruning_rate), DEFAULT)
    }
    if not chosen:
        return compare_rules(WidthTable([]))
    result = survey(chosen, device=device, dtype=dtype, progress=progress, video_pruning_rate=video_pruning_rate)
    check_survey(result, allow_failures=allow_failures)
    return compare_rules(result.table, specs=chosen)
