"""Figures the studies draw.

Every figure function takes the DataFrame a package function made, returns a
matplotlib ``Figure`` (left open, so a notebook shows it inline), and saves a
PNG when given a ``path``. Axes carry units; DeepStack models are marked
(◆, hatched bars) everywhere they appear.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap, LogNorm, TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from ecwidth.study.labels import packing_mark, row_label

DEEPSTACK_COLOR = "#d95f02"
PLAIN_COLOR = "#1b9e77"
HIDDEN_COLOR = "#9e9e9e"
DEEPSTACK_HATCH = "//"
CAPPED_HATCH = ".."
EXACT_COLOR = "#4daf4a"
PNG_DPI = 120


def save_figure(fig: Figure, path: str | os.PathLike[str] | None) -> Path | None:
    """Save ``fig`` as a PNG at ``path`` (its folder is created); nothing when ``path`` is None."""
    if path is None:
        return None
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=PNG_DPI, bbox_inches="tight", format="png")
    return path


def _legend_below(ax: Any, handles: list[Any] | None = None, *, ncol: int = 3) -> None:
    """A legend under the axes' x label, at the same physical distance whatever the figure's height."""
    kwargs = {"handles": handles} if handles is not None else {}
    ax.legend(**kwargs, loc="upper center", bbox_to_anchor=(0.5, 0.0), borderaxespad=4.6, ncol=ncol, fontsize=8)


def _memory_unit(top_bytes: float) -> tuple[str, int]:
    """GiB from 2 GiB up, else MiB: the unit in which the largest bar reads with a few digits."""
    return ("GiB", 2**30) if top_bytes >= 2**31 else ("MiB", 2**20)


def _deepstack_legend(ax: Any, extra: Iterable[Any] = ()) -> None:
    handles = [
        *extra,
        Patch(facecolor=PLAIN_COLOR, label="encoder output width (one map)"),
        Patch(facecolor=DEEPSTACK_COLOR, hatch=DEEPSTACK_HATCH, label="encoder output width (◆ packed maps)"),
    ]
    _legend_below(ax, handles, ncol=3)


# -- widths and the survey's cost -------------------------------------------------------


def _collapse_modalities(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (model, width), widest against the hidden size first: modalities with the same width share a bar."""
    grouped = (
        frame.groupby(["model", "encoder_width", "lm_hidden_size", "deepstack_levels"], sort=False)["modality"]
        .agg(list)
        .reset_index()
    )
    grouped["label"] = [
        row_label(
            r.model, r.modality, packing_mark(int(r.deepstack_levels), int(r.encoder_width), int(r.lm_hidden_size))
        )
        for r in grouped.itertuples(index=False)
    ]
    grouped["ratio"] = grouped["encoder_width"] / grouped["lm_hidden_size"]
    return grouped.sort_values(["ratio", "encoder_width", "model"], ascending=[False, False, True], kind="stable")


def width_vs_hidden(frame: pd.DataFrame, path: str | os.PathLike[str] | None = None) -> Figure:
    """Encoder output width next to the LM hidden size, per model (and modality where they differ).

    ``frame`` has model, modality, encoder_width, lm_hidden_size and
    deepstack_levels (``WidthTable.to_frame()`` or ``costs.width_summary``).
    Rows are sorted by width / hidden ratio, so the wide models stand together
    at the top; packed bars are hatched and every bar is labelled with its ratio.
    """
    data = _collapse_modalities(frame).iloc[::-1]
    y = np.arange(len(data))
    fig, ax = plt.subplots(figsize=(10, 1.6 + 0.42 * len(data)))
    ax.barh(y + 0.2, data["lm_hidden_size"], height=0.38, color=HIDDEN_COLOR)
    deep = data["deepstack_levels"].to_numpy() > 0
    bars = ax.barh(y - 0.2, data["encoder_width"], height=0.38, color=np.where(deep, DEEPSTACK_COLOR, PLAIN_COLOR))
    for bar, is_deep, width, ratio in zip(bars, deep, data["encoder_width"], data["ratio"]):
        if is_deep:
            bar.set_hatch(DEEPSTACK_HATCH)
        ax.annotate(f"{width:,}  ({ratio:.3g}× hidden)", (width, bar.get_y() + bar.get_height() / 2),
                    xytext=(4, 0), textcoords="offset points", va="center", fontsize=8)  # fmt: skip
    ax.set_yticks(y, data["label"], fontsize=8)
    ax.set_ylim(-0.7, len(data) - 0.3)
    ax.set_xlabel("width (elements per embedding token)")
    ax.set_xlim(0, max(data["encoder_width"].max(), data["lm_hidden_size"].max()) * 1.3)
    ax.set_title("Encoder output width vs LM hidden size, widest first\n"
                 "(◆ = feature maps packed on the last dim: DeepStack levels, or layer maps)", fontsize=10)  # fmt: skip
    ax.grid(axis="x", alpha=0.3)
    _deepstack_legend(ax, [Patch(facecolor=HIDDEN_COLOR, label="LM hidden_size")])
    fig.tight_layout()
    save_figure(fig, path)
    return fig


def survey_cost(costs: pd.DataFrame, path: str | os.PathLike[str] | None = None, *, warmup_s: float = 0.0) -> Figure:
    """The survey's own cost per model: build and encode time (s), and memory (GiB) above the baseline.

    ``costs`` is ``Survey.costs`` and ``warmup_s`` its ``warmup_s``: the
    process's one-time start-up gets a bar of its own above the first model, so
    that model is not charged for it. Memory is each model's peak stacked on the
    baseline it started from (the process before it), the part it added
    labelled; peak CUDA memory is drawn the same way where it was recorded.
    """
    data = costs.iloc[::-1].reset_index(drop=True)
    y = np.arange(len(data))
    fig, (time_ax, mem_ax) = plt.subplots(1, 2, figsize=(12, 2.4 + 0.4 * (len(data) + 1)), sharey=True)
    other = (data["total_s"] - data["build_s"] - data["encode_s"]).clip(lower=0)
    time_ax.barh([len(data)], [warmup_s], color="#a6761d", label="process warm-up (device start, model code imports)")
    time_ax.barh(y, data["build_s"], color="#7570b3", label="build")
    time_ax.barh(y, data["encode_s"], left=data["build_s"], color="#e7298a", label="encode")
    time_ax.barh(y, other, left=data["build_s"] + data["encode_s"], color="#cccccc", label="other (config, cleanup)")
    time_ax.annotate(f"{warmup_s:.1f} s, once", (warmup_s, len(data)), xytext=(3, 0), textcoords="offset points",
                     va="center", fontsize=8)  # fmt: skip
    time_ax.set_yticks([*y, len(data)], [*data["model"], "(warm-up, before the first model)"], fontsize=8)
    time_ax.set_ylim(-0.6, len(data) + 0.6)  # no empty rows above the warm-up or below the last model
    time_ax.set_xlim(right=time_ax.get_xlim()[1] * 1.15)  # room for the warm-up's label
    time_ax.set_xlabel("time (s)")
    time_ax.set_title(f"Survey time: {warmup_s:.1f} s warm-up + {data['total_s'].sum():.1f} s over "
                      f"{len(data)} model(s)", fontsize=10)  # fmt: skip
    _legend_below(time_ax, ncol=2)
    time_ax.grid(axis="x", alpha=0.3)
    series = [("rss", data["peak_rss_bytes"], data.get("start_rss_bytes"), "#66a61e", "process RSS")]
    cuda = pd.to_numeric(data["peak_cuda_bytes"], errors="coerce") if "peak_cuda_bytes" in data else None
    if cuda is not None and bool(cuda.notna().any()):
        start = pd.to_numeric(data.get("start_cuda_bytes"), errors="coerce")
        series.append(("cuda", cuda.fillna(0), None if start is None else start.fillna(0), "#e6ab02", "CUDA allocated"))
    height = 0.8 / len(series)
    unit, scale = _memory_unit(max(float(peak.max()) for _, peak, *_ in series))
    for index, (_, peak, start, color, what) in enumerate(series):
        at = y + (len(series) - 1) / 2 * height - index * height
        base = pd.Series(0, index=data.index) if start is None else pd.to_numeric(start).fillna(0)
        added = (peak - base).clip(lower=0)
        mem_ax.barh(at, base / scale, height=height * 0.95, color="#d9d9d9",
                    label="baseline: before the model" if index == 0 else None)  # fmt: skip
        mem_ax.barh(at, added / scale, left=base / scale, height=height * 0.95, color=color,
                    label=f"{what} the model added (peak − baseline)")  # fmt: skip
        for row_y, top, extra in zip(at, peak / scale, added / scale):
            mem_ax.annotate(f"+{extra:,.1f} {unit}" if unit == "MiB" else f"+{extra:.2f} {unit}", (top, row_y),
                            xytext=(3, 0), textcoords="offset points", va="center", fontsize=7)  # fmt: skip
    mem_ax.set_xlim(right=mem_ax.get_xlim()[1] * 1.12)
    mem_ax.set_xlabel(f"memory ({unit})")
    mem_ax.set_title("Peak memory per model, above the process baseline", fontsize=10)
    _legend_below(mem_ax, ncol=1)
    mem_ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    save_figure(fig, path)
    return fig


# -- measuring cost: minimal vs profile (benchmarks/measure_cost.json) ----------------------


def measure_cost(bench: pd.DataFrame, path: str | os.PathLike[str] | None = None) -> Figure:
    """Minimal-item against profile-item measurement: time (s, log) and peak memory (GiB), per model.

    ``bench`` is ``notebook.load_measure_cost``'s frame: a committed reference run, not this
    machine's, and the title says so (its file, machine and date, from ``bench.attrs``). Memory is
    the peak above the encoder's weights where every entry records it (``peak_above_weights_bytes``),
    else the peak CUDA allocation, else the process RSS. Only a profile item that was capped is
    hatched, and its label gives its tokens out of the real profile size.
    """
    y = np.arange(len(bench))[::-1]
    fig, (time_ax, mem_ax) = plt.subplots(1, 2, figsize=(12, 1.5 + 0.55 * len(bench)), sharey=True)
    capped = bench.get("profile_capped", pd.Series(False, index=bench.index)).fillna(False).astype(bool)
    memory = next(
        (column, label)
        for column, label in (
            ("peak_above_weights_bytes", "peak memory above the encoder weights"),
            ("peak_cuda_bytes", "peak CUDA allocated"),
            ("peak_rss_bytes", "peak process RSS"),
        )
        if all(
            f"{kind}_{column}" in bench and bench[f"{kind}_{column}"].notna().all() for kind in ("minimal", "profile")
        )
    )
    top = pd.to_numeric(bench[f"profile_{memory[0]}"]).max()
    memory_unit, memory_scale = _memory_unit(top)
    for ax, column, scale, unit in (
        (time_ax, "total_s", 1.0, "build + encode time (s, log scale)"),
        (mem_ax, memory[0], memory_scale, f"{memory[1]} ({memory_unit})"),
    ):
        minimal = bench[f"minimal_{column}"] / scale
        profile = bench[f"profile_{column}"] / scale
        ax.barh(y + 0.2, minimal, height=0.38, color=PLAIN_COLOR)
        bars = ax.barh(y - 0.2, profile, height=0.38, color="#7570b3")
        for bar, is_capped, lo, hi in zip(bars, capped, minimal, profile):
            if is_capped:
                bar.set_hatch(CAPPED_HATCH)
            ratio = hi / lo if lo else math.inf
            ax.annotate(f"{ratio:,.0f}×", (hi, bar.get_y() + bar.get_height() / 2), xytext=(3, 0),
                        textcoords="offset points", va="center", fontsize=8)  # fmt: skip
        ax.set_xlabel(unit)
        ax.grid(axis="x", alpha=0.3)
    time_ax.set_xscale("log")
    time_ax.set_xlim(right=time_ax.get_xlim()[1] * 4)  # room for the ratio labels
    mem_ax.set_xlim(right=mem_ax.get_xlim()[1] * 1.15)
    labels = []
    for row in bench.itertuples(index=False):
        label = f"{row.model}\n{row.minimal_tokens} vs {row.profile_tokens} tokens"
        real = getattr(row, "profile_real_profile_tokens", None)
        if bool(getattr(row, "profile_capped", False)) and real is not None:
            label += f" (capped; real {real})"
        labels.append(label)
    time_ax.set_yticks(y, labels, fontsize=8)
    time_ax.set_title("Time to measure the width (profile/minimal ratio)")
    mem_ax.set_title("Peak memory while measuring")
    handles = [
        Patch(facecolor=PLAIN_COLOR, label="minimal item (ecwidth)"),
        Patch(facecolor="#7570b3", label="profile-sized item (serving engine)"),
    ]
    if capped.any():
        handles.append(Patch(facecolor="#7570b3", edgecolor="black", hatch=CAPPED_HATCH,
                             label="profile item capped below the real profile size"))  # fmt: skip
    device = ", ".join(sorted({f"{d} {t}" for d, t in zip(bench.get("device", ["?"]), bench.get("dtype", ["?"]))}))
    machine = bench.attrs.get("machine") or {}
    where = ", ".join(
        str(part) for part in (machine.get("cpu"), machine.get("cpu_count") and f"{machine['cpu_count']} CPUs",
                               machine.get("gpu"), device, bench.attrs.get("date")) if part
    )  # fmt: skip
    source = bench.attrs.get("source", "the benchmark's JSON")
    fig.suptitle(f"Cost of measuring, minimal vs profile-sized dummy item: the committed reference run\n"
                 f"{source} ({where}), not this machine", fontsize=10)  # fmt: skip
    fig.tight_layout()
    # Under the figure, not one panel: a panel's legend as wide as the figure would push the panels apart.
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3, fontsize=8)
    save_figure(fig, path)
    return fig


# -- DeepStack growth and item costs ----------------------------------------------------


def deepstack_growth(growth: pd.DataFrame, path: str | os.PathLike[str] | None = None) -> Figure:
    """Measured width against the number of DeepStack levels, one colour per model.

    ``growth`` is ``deepstack.measure_growth``'s frame (one or more models).
    Each modality has its own marker, drawn hollow and of its own size, so
    coinciding measurements stay visible; ``out_hidden_size × (1 + levels)`` is
    dashed, the LM hidden size dotted, and the published level count starred
    (hollow, so the measured points inside stay visible).
    """
    fig, ax = plt.subplots(figsize=(8, 5.5))
    markers = {"image": ("o", 12), "video": ("s", 7), "audio": ("^", 9)}
    colors = plt.get_cmap("tab10").colors
    for index, (model, part) in enumerate(growth.groupby("model", sort=False)):
        color = colors[index % 10]
        for modality, points in part.groupby("modality", sort=False):
            points = points.sort_values("levels")
            marker, size = markers.get(modality, ("D", 8))
            ax.plot(points["levels"], points["encoder_width"], marker=marker, markersize=size, markerfacecolor="none",
                    markeredgewidth=1.6, linestyle="-", color=color, alpha=0.9,
                    label=f"{model} {modality}: measured")  # fmt: skip
        levels = part.drop_duplicates("levels").sort_values("levels")
        if levels["expected_width"].notna().any():
            ax.plot(levels["levels"], levels["expected_width"].astype("float64"), linestyle="--", color=color,
                    alpha=0.6, label=f"{model}: out_hidden_size × (1 + levels)")  # fmt: skip
        ax.axhline(levels["lm_hidden_size"].iloc[0], color=color, linestyle=":", alpha=0.7,
                   label=f"{model}: LM hidden_size = {levels['lm_hidden_size'].iloc[0]:,}")  # fmt: skip
        published = (
            levels[levels["levels"] == levels["published_levels"]] if "published_levels" in levels else levels[:0]
        )
        if len(published):
            width = float(published["encoder_width"].iloc[0])
            ax.plot([published["levels"].iloc[0]], [width], marker="*", markersize=26, markerfacecolor="none",
                    markeredgewidth=1.2, color=color, linestyle="none", zorder=1,
                    label=f"{model}: published config ({int(published['levels'].iloc[0])} levels)")  # fmt: skip
    ax.set_xlabel("DeepStack levels (feature maps packed after the main features)")
    ax.set_ylabel("encoder output width (elements per embedding token)")
    ax.set_xticks(sorted(growth["levels"].unique()))
    ax.set_title("Encoder output width vs DeepStack levels\n(measured on variants of a published config)")
    ax.grid(alpha=0.3)
    _legend_below(ax, ncol=2)
    fig.tight_layout()
    save_figure(fig, path)
    return fig


def transfer_costs(costs: pd.DataFrame, path: str | os.PathLike[str] | None = None) -> Figure:
    """Bytes per typical item and whole items per buffer, one heat map each, models × items, log colour scale.

    ``costs`` is ``costs.transfer_costs``'s frame. Every (model, item) has a
    cell: one the model does not take reads "not taken", one its family has no
    token rule for "no token rule". Bytes are decimal (MB, GB), the units
    buffer sizes are quoted in, so a 1 GB buffer and a 3.1 MB item compare directly.
    """
    models = list(dict.fromkeys(costs["model"]))
    items = list(dict.fromkeys(costs["item"]))
    by_pair = costs.set_index(["model", "item"])
    levels = costs.groupby("model", sort=False).agg(
        levels=("deepstack_levels", "max"), width=("encoder_width", "max"), hidden=("lm_hidden_size", "max")
    )
    marks = {model: packing_mark(int(r.levels), int(r.width), int(r.hidden)) for model, r in levels.iterrows()}
    labels = [f"{model} {marks[model]}".rstrip() for model in models]
    buffer = int(costs["buffer_bytes"].iloc[0]) if len(costs) else 0
    dtype = ", ".join(sorted(set(costs["serving_dtype"])))
    fig, axes = plt.subplots(
        1, 2, figsize=(4 + 2.6 * len(items), 2.2 + 0.34 * len(models)), sharey=True, layout="constrained"
    )  # it keeps the suptitle clear of the panel titles
    panels = (
        ("item_bytes", f"bytes per item ({dtype})", "Blues", human_bytes),
        ("items_per_buffer", f"whole items per {human_bytes(buffer)} buffer", "Greens", lambda v: f"{v:,.0f}"),
    )
    for ax, (column, title, cmap_name, text) in zip(axes, panels):
        values = np.full((len(models), len(items)), np.nan)
        notes = np.full((len(models), len(items)), "not taken", dtype=object)
        for (i, model), (j, item) in ((a, b) for a in enumerate(models) for b in enumerate(items)):
            if (model, item) not in by_pair.index:
                continue
            row = by_pair.loc[(model, item)]
            if pd.isna(row[column]):
                notes[i, j] = "no token rule"
            else:
                values[i, j] = max(float(row[column]), 1.0)
                notes[i, j] = text(float(row[column]))
        finite = values[np.isfinite(values)]
        norm = LogNorm(vmin=finite.min(), vmax=max(finite.max(), finite.min() * 10)) if finite.size else None
        cmap = plt.get_cmap(cmap_name).with_extremes(bad="#eeeeee")
        ax.imshow(np.ma.masked_invalid(values), cmap=cmap, norm=norm, aspect="auto")
        for (i, j), note in np.ndenumerate(notes):
            dark = norm is not None and np.isfinite(values[i, j]) and norm(values[i, j]) > 0.6
            ax.text(j, i, note, ha="center", va="center", fontsize=8, color="white" if dark else "black",
                    style="normal" if np.isfinite(values[i, j]) else "italic")  # fmt: skip
        ax.set_xticks(range(len(items)), items, rotation=20, ha="right", fontsize=8)
        ax.set_title(title, fontsize=10)
    axes[0].set_yticks(range(len(models)), labels, fontsize=8)
    fig.suptitle("What one item costs to ship from EC producer to consumer, and how many fit one buffer "
                 "(colour: log scale)", fontsize=10)  # fmt: skip
    save_figure(fig, path)
    return fig


def human_bytes(size: float) -> str:
    """``"3.1 MB"``: decimal prefixes, the ones buffer sizes are quoted in (a 1 GB buffer is 10⁹ bytes)."""
    for unit, factor in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(size) >= factor:
            return f"{size / factor:.3g} {unit}"
    return f"{size:.0f} B"


# -- sizing rules -----------------------------------------------------------------------


def _error_text(error: float) -> str:
    if error is None or (isinstance(error, float) and math.isnan(error)):
        return "n/a"
    if error == 0:
        return "exact"
    factor = 1 + error
    return f"{error:+.0%}\n({1 / factor:.3g}× short)" if error < 0 else f"{error:+.0%}\n({factor:.3g}× big)"


def rule_heatmap(matrix: pd.DataFrame, path: str | os.PathLike[str] | None = None) -> Figure:
    """Models × rules heat map of signed relative error (rule − measured) / measured.

    Red cells under-allocate (crash or corruption), blue ones over-allocate
    (wasted memory), green ones are exact, and hatched grey ones are rules that
    do not apply. ``matrix`` is ``rules.rule_matrix``'s frame. The figure's
    height grows with the rows, its title, key and colour bar keep their
    size, so 2 rows read as well as 60.
    """
    values = matrix.to_numpy(dtype="float64")
    finite = values[np.isfinite(values)]
    top = max(1.0, float(finite.max()) if finite.size else 1.0)
    norm = TwoSlopeNorm(vmin=-1.0, vcenter=0.0, vmax=top)
    rows, columns = matrix.shape
    fig, ax = plt.subplots(figsize=(3.5 + 1.9 * columns, 2.8 + 0.42 * rows))
    cmap = plt.get_cmap("RdBu").with_extremes(bad="#e0e0e0")
    off = np.isfinite(values) & (values != 0)
    image = ax.imshow(np.ma.masked_where(~off, values), cmap=cmap, norm=norm, aspect="auto")
    exact = np.where(values == 0, 1.0, np.nan)
    ax.imshow(np.ma.masked_invalid(exact), cmap=ListedColormap([EXACT_COLOR]), vmin=0, vmax=1, aspect="auto")
    for (i, j), error in np.ndenumerate(values):
        if not np.isfinite(error):
            ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", edgecolor="#b0b0b0", lw=0))
        strong = bool(off[i, j]) and abs(norm(error) - 0.5) > 0.35
        ax.text(j, i, _error_text(error), ha="center", va="center", fontsize=7, color="white" if strong else "black",
                weight="bold" if error == 0 else "normal")  # fmt: skip
    ax.set_xticks(range(columns), matrix.columns, rotation=20, ha="right", fontsize=8)
    ax.set_yticks(range(rows), matrix.index, fontsize=8)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_xlabel("sizing rule")
    ax.set_ylabel("model (modalities)")  # short: it must fit beside 2 rows as beside 60
    ax.set_title("EC buffer sizing rules vs measured width (◆ = packed maps)", fontsize=11, pad=28)
    key = [
        Patch(facecolor=EXACT_COLOR, label="exact"),
        Patch(facecolor=plt.get_cmap("RdBu")(0.1), label="under-allocates (crash/corruption)"),
        Patch(facecolor=plt.get_cmap("RdBu")(0.9), label="over-allocates (waste)"),
        Patch(facecolor="#e0e0e0", hatch="///", edgecolor="#b0b0b0", label="n/a: the config lacks the field"),
    ]
    ax.legend(handles=key, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=4, fontsize=8, frameon=False)
    bar = fig.colorbar(image, ax=ax, fraction=0.04, pad=0.02, aspect=max(8, 2 * rows))
    bar.set_label("signed relative error (rule − measured) / measured", fontsize=8)
    bar.ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:+.0%}"))
    fig.tight_layout()
    save_figure(fig, path)
    return fig


def highlight_errors(matrix: pd.DataFrame) -> Any:
    """A pandas Styler of ``rules.rule_matrix``: under-allocation red, over-allocation blue, exact green."""

    def color(error: float) -> str:
        if pd.isna(error):
            return "color: #888888"
        if error < 0:
            return "background-color: #f4a6a6; font-weight: bold"
        if error > 0:
            return "background-color: #a6c8f4"
        return f"background-color: {EXACT_COLOR}; color: white; font-weight: bold"

    return matrix.style.map(color).format(lambda e: "n/a" if pd.isna(e) else f"{e:+.0%}")
