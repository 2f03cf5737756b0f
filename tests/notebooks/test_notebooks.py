"""Every notebook, executed headless by papermill with CPU-sized parameters, each into a fresh folder.

The notebooks measure one DeepStack model and one model without DeepStack on the
CPU in float32; the exported files must exist, carry the package's columns, and
hold the widths ``ecwidth.measuring.measure`` gives in this process. One broken parameter
set must fail with papermill's error, naming the cell.
"""

import csv
import json
import re
import sys
from pathlib import Path

import matplotlib
import nbformat
import pandas as pd
import pytest

papermill = pytest.importorskip("papermill")

import ecwidth  # noqa: E402
from ecwidth.engines.releases import DEFAULT  # noqa: E402
from ecwidth.families.adapter import find_adapter  # noqa: E402
from ecwidth.measuring.survey import not_served_why  # noqa: E402
from ecwidth.reading.catalog import catalog_entry  # noqa: E402
from ecwidth.reading.configs import resolve_spec  # noqa: E402
from ecwidth.records.table import COLUMNS, WidthTable  # noqa: E402
from ecwidth.study import costs, notebook, rules  # noqa: E402

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
NAMES = ("01_width_survey", "02_deepstack_packing", "03_sizing_rules", "04_producer_tables")
DEEPSTACK = "qwen3-vl-2b-instruct"  # the smallest DeepStack tower in the catalog
# Cheapest minimal encode first; the first whose family adapter exists is used.
PLAIN_CANDIDATES = ("qwen2-5-vl-7b-instruct", "qwen2-vl-7b-instruct", "gemma-3-4b-it", "llava-1.5-7b-hf")
CPU = {"device": "cpu", "dtype": "float32", "progress": False}


def _plain_model() -> str | None:
    for name in PLAIN_CANDIDATES:
        if find_adapter(catalog_entry(name).config["model_type"]) is not None:
            return name
    return None


PLAIN = _plain_model()
MODELS = [DEEPSTACK] + ([PLAIN] if PLAIN else [])


def run(name: str, folder: Path, **parameters) -> nbformat.NotebookNode:
    """Execute one notebook into ``folder`` (the executed copy and its files side by side)."""
    folder.mkdir(parents=True, exist_ok=True)
    return papermill.execute_notebook(
        str(NOTEBOOKS / f"{name}.ipynb"),
        str(folder / f"{name}.ipynb"),
        parameters={**CPU, "output_dir": str(folder), **parameters},
        kernel_name="python3",
        cwd=str(ROOT),
        progress_bar=False,
    )


def stdout_of(cell: nbformat.NotebookNode) -> str:
    return "".join(output.get("text", "") for output in cell.get("outputs", []) if output.output_type == "stream")


def files_listed(book: nbformat.NotebookNode) -> set[Path]:
    """The files the notebook's last cell says it wrote."""
    text = stdout_of(book.cells[-1])
    assert re.match(r"\d+ file\(s\) written:", text), text
    return {ROOT / line.strip() for line in text.splitlines()[1:] if line.strip()}  # relative paths are the project's


@pytest.fixture(scope="module")
def measured() -> dict[str, dict[str, int]]:
    """Widths measured in this process, to check the notebooks' exports against."""
    return {name: ecwidth.measure(name, device="cpu", dtype="float32").widths for name in MODELS}


@pytest.fixture(scope="module")
def benchmark_json(tmp_path_factory) -> Path:
    """A benchmark result laid out as benchmarks/measure_cost.py writes it: {"models": [entry, ...], ...}."""
    path = tmp_path_factory.mktemp("bench") / "measure_cost.json"
    entry = {
        "model": "qwen3-vl-4b-instruct",
        "predict_s": 0.002,
        "minimal": {
            "build_s": 0.08,
            "encode_s": 0.6,
            "peak_rss_bytes": 3 * 2**30,
            "peak_above_weights_bytes": 7 * 2**20,
            "tokens": 1,
            "tokens_by_modality": {"image": 1},
            "runs": [{"build_s": 0.08}],
        },  # fmt: skip
        "profile": {
            "build_s": 0.08,
            "encode_s": 350.0,
            "peak_rss_bytes": 9 * 2**30,
            "peak_above_weights_bytes": 6 * 2**30,
            "tokens": 1024,
            "real_profile_tokens": 16384,
            "capped": True,
        },  # fmt: skip
        "profile_over_minimal_time": 510.0,
        "profile_over_minimal_memory": 3.0,
        "minimal_over_floor": 2.5,
        "device": "cpu",
        "dtype": "bfloat16",
        "date": "2026-01-01",
    }
    path.write_text(json.dumps({"models": [entry], "machine": {"cpus": 2}, "survey": None}))
    return path


@pytest.fixture(scope="module")
def survey_run(tmp_path_factory, benchmark_json):
    folder = tmp_path_factory.mktemp("01")
    book = run("01_width_survey", folder, models=MODELS, benchmark_json=str(benchmark_json))
    return folder, book


# -- the stored notebooks ------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_stored_notebook_shape(name):
    book = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    nbformat.validate(book)
    assert book.metadata["kernelspec"]["name"] == "python3"
    first = book.cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# ") and "**Purpose.**" in first.source
    code = [cell for cell in book.cells if cell.cell_type == "code"]
    assert all(not cell.outputs and cell.execution_count is None for cell in code), "store notebooks without outputs"
    tagged = [cell for cell in code if "parameters" in cell.metadata.get("tags", [])]
    assert len(tagged) == 1
    # papermill reads every parameter, its annotation and its help comment (`papermill --help-notebook`).
    inferred = papermill.inspect_notebook(str(NOTEBOOKS / f"{name}.ipynb"))
    assert len(inferred) == sum("=" in line for line in tagged[0].source.splitlines())
    assert all(p["help"].strip() and p["inferred_type_name"] != "None" for p in inferred.values()), inferred
    defaults = {key: inferred[key]["default"] for key in ("device", "dtype", "models", "output_dir")}
    assert defaults == {
        "device": '"auto"', "dtype": '"auto"', "models": '"all"', "output_dir": f'"build/notebooks/{name}"'
    }  # fmt: skip
    for cell in code:  # notebooks only call the package
        assert not re.search(r"^\s*(def|class) |lambda\b", cell.source, re.M), cell.source
    assert code[-1].source == "run.list_written()"
    setup = next(cell for cell in code if "notebook.start(" in cell.source)  # the one setup call, before any work
    assert code.index(setup) == 1
    markdown = "\n".join(cell.source for cell in book.cells if cell.cell_type == "markdown")
    numbers = re.findall(r"^## (\S+) ", markdown, re.M)
    assert numbers == [str(n) for n in range(1, len(numbers) + 1)], "sections are numbered ## 1, ## 2 ..."


def test_python3_kernel_runs_this_python_and_this_checkout(survey_run):
    """kernel_name="python3" must resolve to the interpreter running the tests, importing this source tree."""
    setup = next(stdout_of(cell) for cell in survey_run[1].cells if "notebook.start(" in cell.source)
    kernel = notebook.shown(sys.executable)
    assert f"ecwidth {ecwidth.__version__} from ecwidth, kernel {kernel}\n" in setup  # shown from the project root


# -- executed ------------------------------------------------------------------------------------


def test_01_width_survey(survey_run, measured):
    folder, book = survey_run
    expected = {
        "encoder_widths.json", "encoder_widths.csv", "encoder_widths.md", "width_summary.csv",
        "survey_costs.csv", "width_vs_hidden.png", "survey_cost.png", "measure_cost.png",
    }  # fmt: skip
    assert expected <= {path.name for path in folder.iterdir()}
    assert {path.name for path in files_listed(book)} == expected
    assert all(path.parent == folder for path in files_listed(book))  # PNGs sit next to the executed notebook
    for png in folder.glob("*.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000

    table = WidthTable.from_json(folder / "encoder_widths.json")
    assert table == WidthTable.from_csv(folder / "encoder_widths.csv")
    assert table.models() == sorted(MODELS)
    for name in MODELS:
        assert table.widths(name) == measured[name], name
    with open(folder / "encoder_widths.csv", newline="") as handle:
        assert tuple(next(csv.reader(handle))) == COLUMNS
    frame = table.to_frame()
    assert set(frame["device"]) == {"cpu"} and set(frame["dtype"]) == {"float32"}
    assert set(frame["source"]) == {"measured"} and frame["matches_prediction"].all()
    deep = frame[frame["model"] == DEEPSTACK]
    assert (deep["deepstack_levels"] == 3).all() and (deep["width_ratio"] == 4.0).all()
    markdown = (folder / "encoder_widths.md").read_text()
    assert all(f"| {name} |" in markdown for name in MODELS)

    summary = pd.read_csv(folder / "width_summary.csv")
    assert {"encoder_width", "lm_hidden_size", "width_ratio", "deepstack_levels", "bytes_per_token"} <= set(summary)
    assert (summary["bytes_per_token"] == summary["encoder_width"] * 2).all()  # bf16 serving, measured in fp32
    survey_costs = pd.read_csv(folder / "survey_costs.csv")
    assert list(survey_costs["model"]) == MODELS
    assert (survey_costs["total_s"] > 0).all() and (survey_costs["peak_rss_bytes"] > 0).all()


def test_01_table_dir_and_missing_benchmark(tmp_path):
    """The regeneration path: the table goes to its own folder; no benchmark JSON is a note, not an error."""
    book = run(
        "01_width_survey",
        tmp_path / "run",
        models=DEEPSTACK,  # one name as a plain string, as `-p models NAME` passes it
        table_dir=str(tmp_path / "tables"),
        benchmark_json=str(tmp_path / "absent.json"),
    )
    tables = {p.name for p in (tmp_path / "tables").iterdir()}
    assert tables == {"encoder_widths.json", "encoder_widths.csv", "encoder_widths.md"}
    assert not (tmp_path / "run" / "measure_cost.png").exists()
    notes = [stdout_of(cell) for cell in book.cells if "load_measure_cost" in cell.source]
    assert len(notes) == 1 and "absent.json is not there yet" in notes[0]


def test_02_deepstack_packing(tmp_path, survey_run, measured):
    folder = tmp_path / "02"
    book = run(
        "02_deepstack_packing",
        folder,
        models=MODELS,
        width_table=str(survey_run[0] / "encoder_widths.json"),
        deepstack_models=[DEEPSTACK],
        deepstack_levels=[0, 3],
        growth_modalities=["image"],
        buffer_gb=1.0,
    )
    expected = {
        "deepstack_growth.csv", "deepstack_growth.png", "transfer_costs.csv", "transfer_costs.png",
        "buffer_plans.csv",
    }  # fmt: skip
    assert {path.name for path in files_listed(book)} == expected
    assert all((folder / name).is_file() for name in expected)

    growth = pd.read_csv(folder / "deepstack_growth.csv")
    assert list(growth["levels"]) == [0, 3]
    assert list(growth["encoder_width"]) == [2048, 8192]  # measured on the variants
    assert list(growth["width_pruning_on"] - growth["encoder_width"]) == [5, 5]  # Qwen3-VL's channels, every level
    assert growth["matches_formula"].all()

    item_costs = pd.read_csv(folder / "transfer_costs.csv")
    assert list(item_costs.columns) == list(costs.TRANSFER_COLUMNS)
    assert set(item_costs["model"]) == set(MODELS)
    for row in item_costs.itertuples():
        assert row.encoder_width == measured[row.model][row.modality]
        assert row.item_bytes == row.tokens * row.encoder_width * 2
        assert row.items_per_buffer == 10**9 // row.item_bytes
        assert row.items_per_buffer_at_hidden == 10**9 // (row.tokens * row.lm_hidden_size * 2)
    deep = item_costs[item_costs["model"] == DEEPSTACK].set_index("item")
    assert deep.loc["image 448×448", "tokens"] == 196
    assert deep.loc["image 448×448", "items_per_buffer"] == 311

    plans = pd.read_csv(folder / "buffer_plans.csv")
    assert list(plans.columns) == list(costs.PLAN_COLUMNS)
    assert all(row.width == measured[row.model][row.modality] for row in plans.itertuples())
    priced = plans.dropna(subset=["max_tokens_per_item"])  # a family without a token rule has no maximum
    assert (priced["max_bytes_per_item"] == priced["max_tokens_per_item"] * priced["width"] * 2).all()


def test_03_sizing_rules(tmp_path, measured):
    folder = tmp_path / "03"
    book = run("03_sizing_rules", folder, models=MODELS, width_table=None)  # measures in the notebook itself
    expected = {"rule_comparison.csv", "rule_matrix.csv", "rule_heatmap.png", "pruning_comparison.csv"}
    assert {path.name for path in files_listed(book)} == expected
    pruning = pd.read_csv(folder / "pruning_comparison.csv")  # both models take video pruning
    assert set(pruning["options"]) == {"video_pruning_rate=0.5"} and set(pruning["model"]) == set(MODELS)
    formula = pruning[pruning["rule"] == "out_hidden_size × (1 + DeepStack)"]
    assert (formula["verdict"] == "under").all()  # the config cannot show the engine's channels
    assert (pruning.loc[pruning["rule"] == "ecwidth prediction", "verdict"] == "exact").all()

    comparison = pd.read_csv(folder / "rule_comparison.csv")
    assert list(comparison.columns) == list(rules.COMPARISON_COLUMNS)
    assert set(comparison["rule"]) == set(rules.RULE_NAMES)
    for row in comparison.itertuples():
        assert row.measured_width == measured[row.model][row.modality]
    deep = comparison[comparison["model"] == DEEPSTACK]
    hidden = deep[deep["rule"] == "text hidden_size"]
    assert (hidden["verdict"] == "under").all() and (hidden["measured_over_rule"] == 4.0).all()
    assert (comparison.loc[comparison["rule"] == "ecwidth prediction", "verdict"] == "exact").all()

    matrix = pd.read_csv(folder / "rule_matrix.csv", index_col=0)
    assert list(matrix.columns) == list(rules.RULE_NAMES)
    assert f"{DEEPSTACK} (image, video) ◆ 3 DeepStack levels" in matrix.index


def test_04_producer_tables(tmp_path, survey_run, measured):
    folder = tmp_path / "04"
    book = run("04_producer_tables", folder, models=MODELS, width_table=str(survey_run[0] / "encoder_widths.csv"))
    listed = {path.relative_to(folder).as_posix() for path in files_listed(book)}
    assert listed == {"encoder_widths.json", "encoder_widths.csv", "encoder_widths.md"} | {
        f"producer_configs/{name}.json" for name in MODELS
    }
    for name in MODELS:
        document = json.loads((folder / "producer_configs" / f"{name}.json").read_text())
        assert document == {
            "mm_encoder_output_widths": measured[name],
            "engine": {"name": DEFAULT.engine, "version": DEFAULT.version},
        }
    assert WidthTable.from_json(folder / "encoder_widths.json").models() == sorted(MODELS)
    output = "\n".join(stdout_of(cell) for cell in book.cells)
    assert "round trip OK" in output
    assert "MissingWidthError: no encoder output width was measured for modality 'smell'" in output
    assert "TableError: model 'no-such-model' is not in the width table" in output


def test_a_broken_parameter_set_fails_naming_the_cell(tmp_path):
    with pytest.raises(papermill.PapermillExecutionError) as caught:
        run("01_width_survey", tmp_path, models=["no-such-model"])
    error = caught.value
    assert error.ename == "ConfigError"
    assert "no catalog model named 'no-such-model'" in error.evalue
    executed = nbformat.read(tmp_path / "01_width_survey.ipynb", as_version=4)
    # papermill marks the failure in the executed copy with cells of its own (a banner naming the cell on top,
    # a marker above the failing cell); cell_index counts the cells without them.
    marks = [c for c in executed.cells if "papermill-error-cell-tag" in c.metadata.get("tags", [])]
    assert marks and f"In [{error.exec_count}]" in marks[0].source
    cells = [c for c in executed.cells if c not in marks]
    cell = cells[error.cell_index]
    assert cell.source == error.source
    assert "notebook.start(" in cell.source  # the setup cell, before any work
    assert cell.execution_count == error.exec_count
    assert [o.ename for o in cell.outputs if o.output_type == "error"] == ["ConfigError"]
    failed = [c for c in cells if c.cell_type == "code" and any(o.output_type == "error" for o in c.outputs)]
    assert failed == [cell]
    assert all(c.execution_count is None for c in cells[error.cell_index + 1 :] if c.cell_type == "code")
    assert f'Exception encountered at "In [{error.exec_count}]"' in str(error)
    assert not (tmp_path / "encoder_widths.json").exists()


# -- file helpers the notebooks call (ecwidth.study.notebook) ------------------------------------------


def test_load_measure_cost_is_optional_and_strict(tmp_path, capsys, benchmark_json):
    assert notebook.load_measure_cost(tmp_path / "absent.json") is None
    assert "is not there yet" in capsys.readouterr().out
    bench = notebook.load_measure_cost(benchmark_json)
    assert bench.loc[0, "profile_total_s"] == pytest.approx(350.08)
    assert bench.loc[0, "profile_capped"]
    assert "minimal_runs" not in bench and "minimal_tokens_by_modality" not in bench  # scalars only
    entry = json.loads(benchmark_json.read_text())["models"][0]
    listed = tmp_path / "listed.json"
    listed.write_text(json.dumps([entry]))
    assert notebook.load_measure_cost(listed).equals(bench)
    keyed = tmp_path / "keyed.json"
    keyed.write_text(json.dumps({"qwen3-vl-4b-instruct": {k: v for k, v in entry.items() if k != "model"}}))
    assert list(notebook.load_measure_cost(keyed)["model"]) == ["qwen3-vl-4b-instruct"]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps([{"model": "x", "minimal": {"build_s": 1}, "profile": {}}]))
    with pytest.raises(ValueError, match="minimal lacks encode_s, peak_rss_bytes, tokens"):
        notebook.load_measure_cost(broken)


def test_resolve_path_is_taken_from_the_project_root(tmp_path, monkeypatch):
    monkeypatch.chdir(NOTEBOOKS)  # JupyterLab runs a kernel in the notebook's folder
    assert notebook.resolve_path("build/x") == ROOT / "build" / "x"
    assert notebook.resolve_path(tmp_path / "y") == tmp_path / "y"
    monkeypatch.chdir(tmp_path)  # outside a source tree: the working directory
    assert notebook.resolve_path("z") == tmp_path / "z"


# -- the committed survey -------------------------------------------------------------------------


def test_committed_table_matches_measurement_now(measured):
    """tables/encoder_widths.* (notebook 01 with `-p table_dir tables`) must equal what ecwidth measures today."""
    path = ROOT / "tables" / "encoder_widths.json"
    table = WidthTable.from_json(path)
    assert table == WidthTable.from_csv(path.with_suffix(".csv"))
    assert path.with_suffix(".md").read_text() == table.render_markdown()
    served = {name for name in notebook.select_models("all") if not_served_why(resolve_spec(name), DEFAULT) is None}
    assert served <= set(table.models()), "regenerate the table: the catalog grew"
    from ecwidth.measuring.survey import by_rule

    predicted = {row.model for row in table.rows if row.source == "predicted"}
    assert predicted == {name for name in table.models() if by_rule(resolve_spec(name))}  # only the engine's rule
    for name in MODELS:  # a sample: one DeepStack model, one without
        assert table.widths(name) == measured[name], name
