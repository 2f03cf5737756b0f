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
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from ecwidth.study.rules import row_label

DEEPSTACK_COLOR = "#d95f02"
PLAIN_COLOR = "#1b9e77"
HIDDEN_COLOR = "#9e9e9e"
DEEPSTACK_HATCH = "//"
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


def _deepstack_legend(ax: Any, extra: Iterable[Any] = ()) -> None:
    handles = [
        *extra,
        Patch(facecolor=PLAIN_COLOR, label="encoder output width (no DeepStack)"),
        Patch(facecolor=DEEPSTACK_COLOR, hatch=DEEPSTACK_HATCH, label="encoder output width (◆ DeepStack, packed)"),
    ]
    _legend_below(ax, handles, ncol=3)


# -- widths and the survey's cost -------------------------------------------------------


def _collapse_modalities(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (model, width): modalities with the same width share a bar."""
    grouped = (
        frame.groupby(["model", "encoder_width", "lm_hidden_size", "deepstack_levels"], sort=False)["modality"]
        .agg(list)
        .reset_index()
    )
    grouped["label"] = [
        row_label(r.model, r.modality, int(r.deepstack_levels)) for r in grouped.itertuples(index=False)
    ]
    return grouped


def width_vs_hidden(frame: pd.DataFrame, path: str | os.PathLike[str] | None = None) -> Figure:
    """Encoder output width next to the LM hidden size, per model (and modality where they differ).

    ``frame`` has model, modality, encoder_width, lm_hidden_size and
    deepstack_levels (``WidthTable.to_frame()`` or ``costs.width_summary``).
    DeepStack bars are hatched and labelled with their width / hidden ratio.
    """
    data = _collapse_modalities(frame).iloc[::-1]
    y = np.arange(len(data))
    fig, ax = plt.subplots(figsize=(10, 1.2 + 0.42 * len(data)))
    ax.barh(y + 0.2, data["lm_hidden_size"], height=0.38, color=HIDDEN_COLOR)
    deep = data["deepstack_levels"].to_numpy() > 0
    bars = ax.barh(
        y - 0.2,
        data["encoder_width"],
        height=0.38,
        color=np.where(deep, DEEPSTACK_COLOR, PLAIN_COLOR),
        hatch=None,
    )
    for bar, is_deep, width, hidden in zip(bars, deep, data["encoder_width"], data["lm_hidden_size"]):
        if is_deep:
            bar.set_hatch(DEEPSTACK_HATCH)
        ax.annotate(
            f"{width:,}  ({width / hidden:g}× hidden)",
            (width, bar.get_y() + bar.get_height() / 2),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
    ax.set_yticks(y, data["label"], fontsize=8)
    ax.set_xlabel("width (elements per embedding token)")
    ax.set_xlim(0, max(data["encoder_width"].max(), data["lm_hidden_size"].max()) * 1.3)
    ax.set_title("Encoder output width vs LM hidden size (◆ = DeepStack, packed on the last dim)")
    ax.grid(axis="x", alpha=0.3)
    _deepstack_legend(ax, [Patch(facecolor=HIDDEN_COLOR, label="LM hidden_size")])
    fig.tight_layout()
    save_figure(fig, path)
    return fig


def survey_cost(costs: pd.DataFrame, path: str | os.PathLike[str] | None = None) -> Figure:
    """The survey's own cost per model: build and encode time (s), and peak memory (GiB).

    ``costs`` is ``Survey.costs``. Peak CUDA memory is drawn where it was recorded.
    """
    data = costs.iloc[::-1].reset_index(drop=True)
    y = np.arange(len(data))
    fig, (time_ax, mem_ax) = plt.subplots(1, 2, figsize=(12, 2.2 + 0.4 * len(data)), sharey=True)
    other = (data["total_s"] - data["build_s"] - data["encode_s"]).clip(lower=0)
    time_ax.barh(y, data["build_s"], color="#7570b3", label="build")
    time_ax.barh(y, data["encode_s"], left=data["build_s"], color="#e7298a", label="encode")
    time_ax.barh(y, other, left=data["build_s"] + data["encode_s"], color="#cccccc", label="other (config, cleanup)")
    time_ax.set_yticks(y, data["model"], fontsize=8)
    time_ax.set_xlabel("time (s)")
    time_ax.set_title(f"Survey time per model (total {data['total_s'].sum():.1f} s)")
    _legend_below(time_ax, ncol=3)
    time_ax.grid(axis="x", alpha=0.3)
    cuda = pd.to_numeric(data["peak_cuda_bytes"], errors="coerce") if "peak_cuda_bytes" in data else None
    has_cuda = cuda is not None and bool(cuda.notna().any())
    offset, height = (0.2, 0.38) if has_cuda else (0.0, 0.7)
    mem_ax.barh(y - offset, data["peak_rss_bytes"] / 2**30, height=height, color="#66a61e", label="peak process RSS")
    if has_cuda:
        mem_ax.barh(y + offset, cuda.fillna(0) / 2**30, height=height, color="#e6ab02", label="peak CUDA allocated")
    mem_ax.set_xlabel("peak memory (GiB)")
    mem_ax.set_title("Survey peak memory per model")
    _legend_below(mem_ax, ncol=2)
    mem_ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    save_figure(fig, path)
    return fig


# -- measuring cost: minimal vs profile (benchmarks/measure_cost.json) ----------------------

def measure_cost(bench: pd.DataFrame, path: str | os.PathLike[str] | None = None) -> Figure:
    """Minimal-item against profile-item measurement: time (s, log) and peak memory (GiB), per model.

    ``bench`` is ``notebook.load_measure_cost``'s frame. Memory is the peak above the encoder's
    weights where every entry records it (``peak_above_weights_bytes``), else the peak CUDA
    allocation, else the process RSS. A capped profile item is hatched and labelled with
    its tokens out of the real profile size.
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
        if all(f"{kind}_{column}" in bench and bench[f"{kind}_{column}"].notna().all() for kind in ("minimal", "profile"))
    )
    top = pd.to_numeric(bench[f"profile_{memory[0]}"]).max()
    unit, scale = ("GiB", 2**30) if top >= 2**31 else ("MiB", 2**20)
    for ax, column, scale, unit in (
        (time_ax, "total_s", 1.0, "build + encode time (s, log scale)"),
        (mem_ax, memory[0], scale, f"{memory[1]} ({unit})"),
    ):
        minimal = bench[f"minimal_{column}"] / scale
        profile = bench[f"profile_{column}"] / scale
        ax.barh(y + 0.2, minimal, height=0.38, color=PLAIN_COLOR)
        bars = ax.barh(y - 0.2, profile, height=0.38, color="#7570b3")
        for bar, is_capped, lo, hi in zip(bars, capped, minimal, profile):
            if is_capped:
                bar.set_hatch(DEEPSTACK_HATCH)
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
        Patch(facecolor="white", edgecolor="black", hatch=DEEPSTACK_HATCH, label="profile item capped"),
    ]
    _legend_below(time_ax, handles, ncol=2)
    device = ", ".join(sorted({f"{d} {t}" for d, t in zip(bench.get("device", ["?"]), bench.get("dtype", ["?"]))}))
    fig.suptitle(f"Cost of measuring: minimal vs profile-sized dummy item ({device})")
    fig.tight_layout()
    save_figure(fig, path)
    return fig


# -- DeepStack growth and item costs ----------------------------------------------------


def deepstack_growth(growth: pd.DataFrame, path: str | os.PathLike[str] | None = None) -> Figure:
    """Measured width against the number of DeepStack levels, with ``out_hidden_size × (1 + levels)`` dashed.

    ``growth`` is ``deepstack.measure_growth``'s frame (one or more models).
    """
    fig, ax = plt.subplots(figsize=(8, 5))
    markers = {"image": ("o", 10), "video": ("s", 5), "audio": ("^", 7)}  # sizes differ so overlaps stay visible
    for (model, modality), part in growth.groupby(["model", "modality"], sort=False):
        part = part.sort_values("levels")
        marker, size = markers.get(modality, ("D", 6))
        ax.plot(part["levels"], part["encoder_width"], marker=marker, markersize=size, linestyle="-",
                label=f"{model} {modality}: measured")  # fmt: skip
    for model, part in growth.groupby("model", sort=False):
        part = part.drop_duplicates("levels").sort_values("levels")
        if part["expected_width"].notna().any():
            ax.plot(part["levels"], part["expected_width"].astype("float64"), linestyle="--", color="black",
                    alpha=0.6, label=f"{model}: out_hidden_size × (1 + levels)")  # fmt: skip
        ax.axhline(part["lm_hidden_size"].iloc[0], color=HIDDEN_COLOR, linestyle=":",
                   label=f"{model}: LM hidden_size = {part['lm_hidden_size'].iloc[0]:,}")  # fmt: skip
    ax.set_xlabel("DeepStack levels (feature maps packed after the main features)")
    ax.set_ylabel("encoder output width (elements per embedding token)")
    ax.set_xticks(sorted(growth["levels"].unique()))
    ax.set_title("Encoder output width vs DeepStack levels\n(measured on variants of a published config)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path)
    return fig


def _item_bars(costs: pd.DataFrame, value: str, scale: float, xlabel: str, title: str, fmt: str) -> Figure:
    """Grouped horizontal bars: one group per model, one bar per typical item, DeepStack-packed items hatched."""
    models = list(dict.fromkeys(costs["model"]))[::-1]
    items = list(dict.fromkeys(costs["item"]))
    levels = costs.groupby("model", sort=False)["deepstack_levels"].max()
    priced = costs[costs[value].notna()]  # items without a token rule have no bytes to draw
    unpriced = set(costs["model"]) - set(priced["model"])
    labels = [
        model + (f" ◆DS×{levels[model]}" if levels[model] else "") + (" (no token rule)" if model in unpriced else "")
        for model in models
    ]
    by_pair = priced.set_index(["model", "item"])
    n_items = max(len(items), 1)
    height = 0.8 / n_items
    fig, ax = plt.subplots(figsize=(11, 1.5 + 0.2 * len(models) * n_items))
    colors = plt.get_cmap("tab10").colors
    for i, item in enumerate(items):
        for y, model in enumerate(models):
            if (model, item) not in by_pair.index:
                continue  # the model does not take this modality, or has no token rule for it
            row = by_pair.loc[(model, item)]
            shown = row[value] / scale
            bar = ax.barh(y + ((n_items - 1) / 2 - i) * height, shown, height=height * 0.95, color=colors[i % 10],
                          hatch=DEEPSTACK_HATCH if row["deepstack_levels"] else None)  # fmt: skip
            ax.annotate(format(shown, fmt), (shown, bar[0].get_y() + bar[0].get_height() / 2), xytext=(3, 0),
                        textcoords="offset points", va="center", fontsize=7)  # fmt: skip
    ax.set_yticks(range(len(models)), labels, fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_xlim(0, (float((priced[value] / scale).max()) if len(priced) else 1.0) * 1.15)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    handles = [Patch(facecolor=colors[i % 10], label=item) for i, item in enumerate(items)]
    packed = Patch(facecolor="white", edgecolor="black", hatch=DEEPSTACK_HATCH, label="◆ DeepStack-packed width")
    handles.append(packed)
    _legend_below(ax, handles, ncol=min(5, len(handles)))
    fig.tight_layout()
    return fig


def item_bytes(costs: pd.DataFrame, path: str | os.PathLike[str] | None = None) -> Figure:
    """Bytes one typical item costs to transfer (MiB), per model and item.

    ``costs`` is ``costs.transfer_costs``'s frame; models without a modality have no bar for its items,
    and items without a token rule have none either (the model's label says so).
    """
    dtype = ", ".join(sorted(set(costs["serving_dtype"])))
    fig = _item_bars(costs, "item_bytes", 2**20, f"transfer size of one item (MiB, {dtype})",
                     "Bytes one item costs to ship from EC producer to consumer", ".1f")  # fmt: skip
    save_figure(fig, path)
    return fig


def items_per_buffer(costs: pd.DataFrame, path: str | os.PathLike[str] | None = None) -> Figure:
    """How many whole items fit in one transfer buffer, per model and item."""
    buffer = costs["buffer_bytes"].iloc[0] if len(costs) else 0
    dtype = ", ".join(sorted(set(costs["serving_dtype"])))
    fig = _item_bars(costs, "items_per_buffer", 1, f"whole items per {buffer / 1e9:g} GB buffer ({dtype})",
                     f"Items that fit in one {buffer / 1e9:g} GB (10⁹ bytes) transfer buffer", ",.0f")  # fmt: skip
    save_figure(fig, path)
    return fig


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
    (wasted memory), white ones are exact, grey ones are rules that do not apply.
    ``matrix`` is ``rules.rule_matrix``'s frame.
    """
    values = matrix.to_numpy(dtype="float64")
    finite = values[np.isfinite(values)]
    top = max(1.0, float(finite.max()) if finite.size else 1.0)
    norm = TwoSlopeNorm(vmin=-1.0, vcenter=0.0, vmax=top)
    fig, ax = plt.subplots(figsize=(2.2 + 1.9 * matrix.shape[1], 1.5 + 0.5 * matrix.shape[0]))
    cmap = plt.get_cmap("RdBu").copy()
    cmap.set_bad("#dddddd")
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, norm=norm, aspect="auto")
    for (i, j), error in np.ndenumerate(values):
        strong = np.isfinite(error) and abs(norm(error) - 0.5) > 0.35
        ax.text(j, i, _error_text(error), ha="center", va="center", fontsize=7, color="white" if strong else "black")
    ax.set_xticks(range(matrix.shape[1]), matrix.columns, rotation=20, ha="right", fontsize=8)
    ax.set_yticks(range(matrix.shape[0]), matrix.index, fontsize=8)
    ax.set_xlabel("sizing rule")
    ax.set_ylabel("model (modalities)  ◆ = DeepStack")
    ax.set_title("EC buffer sizing rules vs measured width\nred: under-allocates (crash/corruption) · "
                 "blue: over-allocates (waste) · grey: rule does not apply")  # fmt: skip
    bar = fig.colorbar(image, ax=ax, shrink=0.8)
    bar.set_label("signed relative error (rule − measured) / measured")
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
        return "background-color: #c8f4c8"

    return matrix.style.map(color).format(lambda e: "n/a" if pd.isna(e) else f"{e:+.0%}")
