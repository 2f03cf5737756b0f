"""The study figures (ecwidth.study.figures) read at a glance for 2 models as for 60: rows keep their height,
labels never overlap, titles stay clear of the panels, colours and hatches say what the legend says."""

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ecwidth.study import figures  # noqa: E402

RULES = ["text hidden_size", "vision out_hidden_size", "out_hidden_size × (1 + DeepStack)", "ecwidth prediction"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _drawn(figure):
    figure.canvas.draw()
    return figure.canvas.get_renderer()


def _row_pitch_points(figure, axes, rows):
    """The height one row gets on the page, in points."""
    return axes.get_window_extent().height / rows * 72 / figure.dpi


def _assert_labels_apart(labels, renderer):
    boxes = sorted((label.get_window_extent(renderer) for label in labels if label.get_text()), key=lambda b: b.y0)
    assert boxes, "no labels drawn"
    for lower, upper in zip(boxes, boxes[1:]):
        assert lower.y1 <= upper.y0 + 0.5, (lower, upper)  # half a pixel of antialiasing


def _pixel(figure, axes, x, y):
    """The RGB drawn at data point (x, y)."""
    column, row = axes.transData.transform((x, y))
    image = np.asarray(figure.canvas.buffer_rgba())
    return image[image.shape[0] - int(round(row)), int(round(column)), :3].astype(int)


def _rule_matrix(rows: int) -> pd.DataFrame:
    cells = [0.0, np.nan, -0.75, 0.5]  # exact, n/a, under, over
    return pd.DataFrame(
        [[cells[(i + j) % 4] for j in range(len(RULES))] for i in range(rows)],
        index=[f"model-{i:02d}-with-a-long-published-name (image, video)" for i in range(rows)],
        columns=RULES,
    )


@pytest.mark.parametrize("rows", [2, 60])
def test_rule_heatmap_keeps_its_rows_readable_and_exact_green(rows):
    matrix = _rule_matrix(rows)
    figure = figures.rule_heatmap(matrix)
    axes = figure.axes[0]
    renderer = _drawn(figure)
    assert _row_pitch_points(figure, axes, rows) >= 2.5 * 8  # two lines of 8-point cell text fit a row
    _assert_labels_apart(axes.get_yticklabels(), renderer)
    assert axes.yaxis.label.get_window_extent(renderer).height <= axes.get_window_extent(renderer).height  # fits beside
    exact = _pixel(figure, axes, -0.35, -0.35)  # row 0, column 0: exact; off-centre, clear of the text
    unknown = _pixel(figure, axes, 1 - 0.35, -0.35)  # row 0, column 1: n/a
    assert exact[1] > exact[0] + 60 and exact[1] > exact[2] + 60, exact  # green
    assert np.ptp(unknown) < 20 and unknown.min() > 150, unknown  # light grey, not green
    labels = {text.get_text() for text in axes.texts}
    assert {"exact", "n/a"} <= labels


def test_rule_heatmap_grows_by_the_same_height_per_row():
    heights = {rows: figures.rule_heatmap(_rule_matrix(rows)).get_size_inches()[1] for rows in (2, 30, 60)}
    assert (heights[60] - heights[30]) / 30 == pytest.approx((heights[30] - heights[2]) / 28)  # linear in the rows
    assert heights[2] < 5  # 2 rows make a small figure, not a page


def _transfer_costs(models: int) -> pd.DataFrame:
    records = []
    for i in range(models):
        for j, item in enumerate(["image 448×448", "image 1024×1024", "video 8 frames 448×448"]):
            width = 8192 if i % 3 == 0 else 2048
            tokens = 196 * (j + 1)
            records.append({
                "model": f"model-{i:02d}", "item": item, "deepstack_levels": 3 if width == 8192 else 0,
                "encoder_width": width, "lm_hidden_size": 2048, "buffer_bytes": 10**9, "serving_dtype": "bfloat16",
                "item_bytes": tokens * width * 2, "items_per_buffer": 10**9 // (tokens * width * 2),
            })  # fmt: skip
    return pd.DataFrame(records)


@pytest.mark.parametrize("models", [2, 50])
def test_transfer_costs_title_stays_clear_of_the_panels(models):
    figure = figures.transfer_costs(_transfer_costs(models))
    renderer = _drawn(figure)
    title = next(text for text in figure.texts if text.get_text().startswith("What one item costs"))
    box = title.get_window_extent(renderer)
    for axes in figure.axes:
        assert not box.overlaps(axes.title.get_window_extent(renderer)), axes.title.get_text()
        assert not box.overlaps(axes.get_window_extent(renderer))
    _assert_labels_apart(figure.axes[0].get_yticklabels(), renderer)


def _survey_costs(models: int) -> pd.DataFrame:
    return pd.DataFrame({
        "model": [f"model-{i:02d}" for i in range(models)],
        "build_s": 0.1, "encode_s": 0.2, "total_s": 0.35,
        "start_rss_bytes": 400 * 2**20, "peak_rss_bytes": [(400 + 10 * i) * 2**20 for i in range(models)],
    })  # fmt: skip


@pytest.mark.parametrize("models", [2, 60])
def test_survey_cost_puts_warm_up_apart_and_memory_above_the_baseline(models):
    costs = _survey_costs(models)
    figure = figures.survey_cost(costs, warmup_s=2.5)
    time_axes, memory_axes = figure.axes
    renderer = _drawn(figure)
    labels = [label.get_text() for label in time_axes.get_yticklabels()]
    assert labels[-1].startswith("(warm-up") and labels[:-1] == list(costs["model"])[::-1]  # its own row, on top
    _assert_labels_apart(time_axes.get_yticklabels(), renderer)
    low, high = time_axes.get_ylim()
    assert low > -1 and high < models + 1  # no empty rows above the warm-up or below the last model
    assert memory_axes.get_xlabel() == "memory (MiB)"  # a few hundred MiB read in MiB, not as 0.4 GiB
    added = [bar for bar in memory_axes.patches if bar.get_x() == pytest.approx(400)]  # stacked on the baseline
    assert sorted(round(bar.get_width()) for bar in added) == [10 * i for i in range(models)]
    assert "+10.0 MiB" in {text.get_text() for text in memory_axes.texts}


def test_measure_cost_hatches_only_the_capped_profile_and_names_the_reference_run():
    bench = pd.DataFrame({
        "model": ["capped", "whole"], "minimal_tokens": [2, 1], "profile_tokens": [1792, 300],
        "profile_capped": [True, False], "profile_real_profile_tokens": [28672, 300],
        "minimal_total_s": [0.05, 0.04], "profile_total_s": [40.0, 3.0],
        "minimal_peak_rss_bytes": [2**20, 2**20], "profile_peak_rss_bytes": [400 * 2**20, 50 * 2**20],
        "device": "cpu", "dtype": "float32",
    })  # fmt: skip
    bench.attrs["source"] = "benchmarks/measure_cost.json"
    figure = figures.measure_cost(bench)
    for axes in figure.axes:
        hatched = [bar for bar in axes.patches if bar.get_hatch()]
        assert len(hatched) == 1 and hatched[0].get_width() in (40.0, 400.0)  # the capped model's profile bar
    labels = [label.get_text() for label in figure.axes[0].get_yticklabels()]
    assert any("capped; real 28672" in label for label in labels) and not any(
        "whole" in label and "capped" in label for label in labels
    )
    title = figure.get_suptitle()
    assert "committed reference run" in title and "benchmarks/measure_cost.json" in title
    assert len(figure.legends) == 1  # one key under both panels


def test_deepstack_growth_gives_each_model_one_colour_and_each_modality_its_points():
    records = [
        {"model": model, "modality": modality, "levels": levels, "encoder_width": hidden * (1 + levels),
         "expected_width": hidden * (1 + levels), "lm_hidden_size": hidden, "published_levels": 3}
        for model, hidden in (("a", 2048), ("b", 4096)) for modality in ("image", "video") for levels in (0, 3, 5)
    ]  # fmt: skip
    figure = figures.deepstack_growth(pd.DataFrame(records))
    axes = figure.axes[0]
    measured = {line.get_label(): line for line in axes.get_lines() if line.get_label().endswith(": measured")}
    assert set(measured) == {"a image: measured", "a video: measured", "b image: measured", "b video: measured"}
    assert measured["a image: measured"].get_color() == measured["a video: measured"].get_color()
    assert measured["a image: measured"].get_color() != measured["b image: measured"].get_color()
    assert measured["a image: measured"].get_marker() != measured["a video: measured"].get_marker()
    assert all(line.get_markerfacecolor() == "none" for line in measured.values())  # coinciding points stay visible
    stars = [line for line in axes.get_lines() if "published config (3 levels)" in line.get_label()]
    assert [list(line.get_ydata()) for line in stars] == [[8192.0], [16384.0]]


def test_width_vs_hidden_puts_the_wide_models_together_on_top():
    frame = pd.DataFrame({
        "model": ["plain-a", "deep", "plain-b", "layers"], "modality": "image",
        "encoder_width": [2048, 8192, 4096, 20480], "lm_hidden_size": [2048, 2048, 4096, 2560],
        "deepstack_levels": [0, 3, 0, 0],
    })  # fmt: skip
    figure = figures.width_vs_hidden(frame)
    labels = [label.get_text().split(" ")[0] for label in figure.axes[0].get_yticklabels()][::-1]  # top first
    assert labels == ["layers", "deep", "plain-b", "plain-a"]  # by ratio (8×, 4×), then width
