"""Steps the notebooks share: the setup cell (every parameter checked before any work),
choosing models, getting a measured table, paths and how they are shown, tables for the eye,
producer config files, and the benchmark's JSON.

The notebooks call the package and grow no logic of their own, so what they
have in common lives here, where it is written and tested once.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from ecwidth.cli.notices import show_in_this_session
from ecwidth.engines import releases
from ecwidth.engines.releases import Release
from ecwidth.errors import EcwidthError, TableError
from ecwidth.reading.catalog import catalog_names
from ecwidth.reading.configs import name_models
from ecwidth.records.atomic import write_text_atomic
from ecwidth.records.table import WidthTable
from ecwidth.records.units import SERVING_DTYPES
from ecwidth.serving.producer_config import render_producer_config
from ecwidth.study.figures import human_bytes

#: Where notebook 01 writes its table by default: notebooks 02-04 reuse it when it is there.
SURVEY_TABLE = "build/notebooks/01_width_survey/encoder_widths.json"


# -- the setup cell ---------------------------------------------------------------------


@dataclass
class Run:
    """What a notebook's setup checked and resolved, and the files it writes (listed at the end)."""

    out: Path
    names: dict[str, Any]
    #: The table to reuse, resolved (``None``: measure here).
    width_table: Path | None = None
    written: list[Path] = field(default_factory=list)

    def wrote(self, *paths: str | os.PathLike[str]) -> None:
        """Record files written, in order."""
        self.written += [Path(path) for path in paths]

    def list_written(self) -> None:
        """Print every file recorded, relative to the project."""
        print(f"{len(self.written)} file(s) written:")
        for path in self.written:
            print(f"  {shown(path)}")


def _json_parameter(name: str, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{name} = {text!r} looks like JSON but does not parse ({error.msg}); "
                         'write a list as \'["a", "b"]\' or a plain "a,b"') from None  # fmt: skip


def _check(name: str, value: Any) -> Any:
    """One parameter, checked by its name (the notebooks share names); the value, an ``engine`` parsed.

    Raises:
        ValueError: The value cannot be right for that parameter; says what it takes.
    """
    if name in ("allow_failures", "progress") and not isinstance(value, bool):
        raise ValueError(f"{name} = {value!r}: use True or False")
    if name == "serving_dtype" and value not in SERVING_DTYPES:
        raise ValueError(f"serving_dtype = {value!r}: use one of {', '.join(SERVING_DTYPES)}")
    if name in ("buffer_gb", "video_pruning_rate") and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise ValueError(f"{name} = {value!r}: use a number")
    if name == "buffer_gb" and not (value > 0 and math.isfinite(value)):
        raise ValueError(f"buffer_gb = {value!r}: use a positive number of GB")
    if name == "video_pruning_rate" and not 0 <= value < 1:
        raise ValueError(f"video_pruning_rate = {value!r}: use 0 (off) up to, not including, 1, as vLLM takes it")
    if name == "deepstack_levels" and not (
        isinstance(value, list) and value and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
    ):  # fmt: skip
        raise ValueError(f"deepstack_levels = {value!r}: use a non-empty list of level counts, such as [0, 1, 2, 3]")
    if name == "deepstack_models":
        if not isinstance(value, list):
            raise ValueError(
                f'deepstack_models = {value!r}: use a list of catalog names, such as ["qwen3-vl-2b-instruct"]'
            )
        select_models(value)
    if name == "growth_modalities" and value is not None and not (isinstance(value, list) and value):
        raise ValueError(f'growth_modalities = {value!r}: use None (every modality) or a list such as ["image"]')
    if name == "engine":
        return releases.release(value)  # an unknown release is an error naming the known ones
    return value


def start(
    output_dir: str,
    *,
    models: Any = "all",
    device: str = "auto",
    dtype: str = "auto",
    width_table: str | None = None,
    **parameters: Any,
) -> Run:
    """The setup cell: check every parameter before any work, then prepare the output folder and the display.

    ``models`` is checked by ``select_models`` (every model located);
    ``device`` and ``dtype`` by the package; any other parameter a notebook
    has is passed by name and checked by ``_check``. ``width_table`` is a table
    file to reuse, ``None`` to measure here, or ``"auto"``: notebook 01's table
    (``SURVEY_TABLE``) when it is there and holds every selected model, else
    measure. Every path is taken from the project root (``resolve_path``) and
    printed relative to it. From here on ecwidth's warnings show as one line
    each, once, and transformers' notes on published configs not at all.

    Raises:
        ConfigError: A model cannot be found.
        TableError: ``width_table`` names a file that is not a valid table.
        ValueError: Any other parameter is wrong; the message says which and what it takes.
    """
    from ecwidth.measuring.devices import resolve_device, resolve_dtype

    show_in_this_session()
    resolve_dtype(dtype, resolve_device(device))
    names = select_models(models)
    checked = {name: _check(name, value) for name, value in parameters.items()}
    if parameters.get("lookup_model") not in (None, *names):
        raise ValueError(f"lookup_model = {parameters['lookup_model']!r} is not a selected model: {', '.join(names)}")
    table = _table_to_reuse(width_table, models, names)
    pd.set_option("display.max_rows", 200)
    pd.set_option("display.max_columns", 30)
    pd.set_option("display.width", 200)
    pd.set_option("display.precision", 3)
    run = Run(prepare_output_dir(output_dir), names, table)
    import ecwidth

    print(f"ecwidth {ecwidth.__version__} from {shown(Path(ecwidth.__file__).parent)}, kernel {shown(sys.executable)}")
    print(f"device={device!r}, dtype={dtype!r}; {len(names)} model(s); writing to {shown(run.out)}")
    if "engine" in checked:
        print(f"widths for {checked['engine']}: every row and producer file names it")
    if table is not None:
        print(f"widths: read from {shown(table)}, not measured again (width_table = None measures here)")
    return run


def _table_to_reuse(width_table: str | None, models: Any, names: Mapping[str, Any]) -> Path | None:
    """``start``'s ``width_table``, resolved and read once, so a bad table stops the notebook before any work.

    Raises:
        TableError: The file is not a valid table, or lacks a selected model.
    """
    if width_table is None:
        return None
    chosen = resolve_path(SURVEY_TABLE if width_table == "auto" else width_table)
    if width_table == "auto" and not chosen.is_file():
        return None
    table = WidthTable.read(chosen)
    every = isinstance(models, str) and models.strip() == "all"
    missing = [] if every and width_table != "auto" else sorted(set(names) - set(table.models()))
    if missing and width_table == "auto":
        print(f"note: {shown(chosen)} lacks {', '.join(missing)}; measuring here instead")
        return None
    if missing:
        raise TableError(f"{shown(chosen)} has no rows for {', '.join(missing)}; models in it: {table.models()}")
    return chosen


# -- choosing models and getting their widths -------------------------------------------


def select_models(models: str | Iterable[str] | Mapping[str, str] = "all") -> dict[str, str]:
    """``{row name: model}`` from a notebook's ``models`` parameter, each model located before any work starts.

    ``"all"`` is the whole catalog; a string is one model, a comma-separated
    list (what ``papermill -p models a,b`` passes) or a JSON list or object
    (``'["a", "b"]'``, as a shell quotes a list); any other iterable is a list
    of models; a mapping names its models. A model is anything ``ecwidth
    measure --model`` takes: a catalog name or hub id, a checkpoint folder or a
    config file. Rows are named after what was given, unless a mapping names them.

    Raises:
        ConfigError: A model cannot be found (suggests close catalog names, or how
            to make a hub id resolvable), or two get the same name.
        ValueError: The selection is empty, or a JSON string does not parse.
    """
    if isinstance(models, str) and models.strip()[:1] in ("[", "{"):
        models = _json_parameter("models", models)
    if isinstance(models, str):
        models = catalog_names() if models.strip() == "all" else [m.strip() for m in models.split(",") if m.strip()]
    elif not isinstance(models, Mapping):
        models = [str(m) for m in models]
    if not models:
        raise ValueError("no models selected; pass catalog names, hub ids, folders or 'all' (see `ecwidth models`)")
    return name_models(models)


def check_survey(result: Any, *, allow_failures: bool = False) -> None:
    """Raise when a survey (``ecwidth.measuring.survey.Survey``) lost models, unless failures are allowed.

    Raises:
        EcwidthError: Some models failed; names each one and its error.
    """
    if result.failures and not allow_failures:
        detail = "; ".join(f"{name}: {error}" for name, error in result.failures.items())
        raise EcwidthError(
            f"{len(result.failures)} model(s) could not be measured: {detail}. "
            "Fix them, leave them out of `models`, or set allow_failures = True."
        )


def measured_table(
    models: str | Iterable[str] | Mapping[str, str] = "all",
    *,
    width_table: str | os.PathLike[str] | None = None,
    device: str = "auto",
    dtype: str = "auto",
    engine: str | Release | None = None,
    progress: bool = True,
    allow_failures: bool = False,
) -> WidthTable:
    """The measured widths of ``models`` under one engine release: read from ``width_table`` when given, else
    measured now.

    A table read from a file is restricted to the selected models (all of its
    models when ``models`` is "all") and to the rows of ``engine`` (a release name; None: the table's only
    release, else the newest vLLM), and every selected model must be in it.

    Raises:
        ConfigError: A model cannot be found (see ``select_models``).
        TableError: The table file is invalid or lacks a selected model.
        EcwidthError: Measuring failed for some model and ``allow_failures`` is off.
    """
    if width_table is not None:
        table = WidthTable.read(resolve_path(width_table)).with_engine(engine)
        if isinstance(models, str) and models.strip() == "all":
            return table
        return WidthTable([row for name in select_models(models) for row in table.for_model(name)])
    from ecwidth.measuring.survey import survey

    result = survey(select_models(models), device=device, dtype=dtype, engine=engine, progress=progress)
    check_survey(result, allow_failures=allow_failures)
    return result.table


# -- output folders ---------------------------------------------------------------------


def project_root(start: str | os.PathLike[str] | None = None) -> Path | None:
    """The nearest folder at or above ``start`` (the working directory) that holds ecwidth's ``pyproject.toml``."""
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "pyproject.toml").is_file() and (folder / "ecwidth").is_dir():
            return folder
    return None


def resolve_path(path: str | os.PathLike[str]) -> Path:
    """An absolute path: relative ones are taken from the project root, so the notebooks
    write to the same place whether papermill runs them from the root or JupyterLab from ``notebooks/``.
    Outside a source tree, relative paths are taken from the working directory."""
    path = Path(path).expanduser()
    if path.is_absolute():
        return path
    return (project_root() or Path.cwd()) / path


def shown(path: str | os.PathLike[str]) -> str:
    """``path`` as a notebook prints it: relative to the project root where it lies inside it.

    The root is the working directory's (``project_root``), else the source tree
    this ecwidth is imported from.
    An executed notebook is an artifact others read, so it must not carry the
    runner's home or checkout folder; a path outside the project stays absolute.
    """
    path = Path(path)
    root = project_root() or project_root(Path(__file__).parent)  # a kernel outside the tree: ecwidth's own
    if root is not None and path.is_absolute():
        try:
            return path.relative_to(root).as_posix() or "."
        except ValueError:
            pass
    return str(path)


def prepare_output_dir(output_dir: str | os.PathLike[str]) -> Path:
    """``resolve_path(output_dir)``, created if missing.

    Raises:
        OSError: The folder cannot be created.
    """
    directory = resolve_path(output_dir)
    directory.mkdir(parents=True, exist_ok=True)
    return directory


# -- producer config files --------------------------------------------------------------


def producer_config_file(directory: str | os.PathLike[str], model: str) -> Path:
    """``<directory>/<model>.json``, a hub id's ``/`` written ``--`` as the Hugging Face cache does, so it stays one file."""
    return Path(directory) / f"{model.replace('/', '--')}.json"


def write_producer_configs(
    table: WidthTable, directory: str | os.PathLike[str], *, engine: str | Release | None = None
) -> list[Path]:
    """Write ``producer_config_file(directory, model)`` for every model, atomically: its widths and engine release.

    Each file is ``render_producer_config(table, model, engine=engine)``:
    ``{"engine": {"name": ..., "version": ...}, "mm_encoder_output_widths": {...}}``.
    Every file is checked and rendered before any is written, so two models
    never share a file: names that map to one file name (``acme/vlm`` and
    ``acme--vlm``, or two that differ only in case, which a case-insensitive
    filesystem would merge) are refused, naming both models.

    Raises:
        TableError: Two models would share a file, a model's name cannot name a file, a model's widths
            are predicted, not measured, or it has no rows under that engine release (``engine`` as
            ``producer_config`` takes it). Nothing is written.
        OSError: A file cannot be written.
    """

    def shown(model: str) -> str:
        return repr(model) if len(model) <= 80 else f"{model[:77]!r}..."

    files: dict[str, tuple[str, Path]] = {}
    for model in table.models():
        path = producer_config_file(directory, model)
        if "\0" in model or len(path.name.encode("utf-8", "surrogatepass")) > 255:
            raise TableError(
                f"model {shown(model)} cannot name a producer config file (a NUL, or a file name past 255 "
                "bytes); rename it in the table. Nothing was written."
            )
        other, other_path = files.setdefault(path.name.casefold(), (model, path))
        if other != model:
            why = "a '/' is written '--'" if other_path == path else "file names that differ only in case are one file"
            raise TableError(
                f"models {shown(other)} and {shown(model)} would both be written to {other_path.name} ({why} on "
                "many filesystems); rename one of them in the table. Nothing was written."
            )
    rendered = {path: render_producer_config(table, model, engine=engine) for model, path in files.values()}
    for path, text in rendered.items():
        write_text_atomic(path, text)
    return list(rendered)


def check_producer_configs(table: WidthTable, paths: Iterable[str | os.PathLike[str]]) -> pd.DataFrame:
    """Read producer config files back and compare each with the table, one row per (model, modality).

    Columns: model, modality, table_width, file_width, round_trip_ok. The model
    is the one whose ``producer_config_file`` the file is named like, else the file's stem; the rows
    compared are those of the engine release the file names.

    Raises:
        TableError: A file is not a ``{"engine": {"name", "version"}, "mm_encoder_output_widths": {str: int}}``
            object, names a release the table lacks for that model, or its modalities differ from the table's.
    """
    models = {producer_config_file("", model).name: model for model in table.models()}
    records = []
    for path in map(Path, paths):
        model = models.get(path.name, path.stem)
        document = json.loads(path.read_text())
        shape_ok = isinstance(document, dict) and set(document) == {"mm_encoder_output_widths", "engine"}
        widths, engine = (document["mm_encoder_output_widths"], document["engine"]) if shape_ok else (None, None)
        if not isinstance(widths, dict) or not isinstance(engine, dict) or set(engine) != {"name", "version"}:
            raise TableError(
                f"{path}: expected exactly {{'engine': {{'name': ..., 'version': ...}}, "
                "'mm_encoder_output_widths': {modality: width}}"
            )
        expected = table.widths(model, engine=f"{engine['name']}=={engine['version']}")
        if set(widths) != set(expected):
            raise TableError(f"{path}: modalities {sorted(widths)} differ from the table's {sorted(expected)}")
        for modality, width in sorted(expected.items()):
            records.append(
                {
                    "model": model,
                    "modality": modality,
                    "table_width": width,
                    "file_width": widths[modality],
                    "round_trip_ok": widths[modality] == width and type(widths[modality]) is int,
                }
            )
    return pd.DataFrame(records, columns=["model", "modality", "table_width", "file_width", "round_trip_ok"])


# -- the benchmark's JSON (benchmarks/measure_cost.py) ----------------------------------


_COST_KEYS = ("build_s", "encode_s", "peak_rss_bytes", "tokens")


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def load_measure_cost(path: str | os.PathLike[str]) -> pd.DataFrame | None:
    """The benchmark's JSON as one row per model, or ``None`` (with a printed note) when the file is absent.

    Accepts a list of per-model entries, an object whose first list holds them
    (``{"models": [...], "machine": ...}`` as the benchmark writes it), or an
    object mapping model names to entries. Each entry has ``model``, ``minimal``
    and ``profile`` (each with build_s, encode_s, peak_rss_bytes, tokens);
    their scalar keys become ``minimal_build_s`` and so on, and
    ``minimal_total_s``/``profile_total_s`` are added. ``attrs`` say where the
    run comes from: ``source`` (the file), ``machine`` and ``date``.

    Raises:
        ValueError: The file is not valid JSON or an entry lacks a required key (named).
    """
    path = resolve_path(path)
    if not path.is_file():
        print(f"note: {shown(path)} is not there yet; run `make bench` to produce it. Skipping.")
        return None
    try:
        document = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON ({error})") from None
    entries: Any = document
    if isinstance(document, Mapping):
        lists = [value for value in document.values() if isinstance(value, list)]
        if lists:
            entries = lists[0]
        else:
            entries = [dict(value, model=value.get("model", key)) for key, value in document.items()
                       if isinstance(value, Mapping)]  # fmt: skip
    records = []
    for index, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            raise ValueError(f"{path}: entry {index} is not an object")
        for key in ("model", "minimal", "profile"):
            if key not in entry:
                raise ValueError(f"{path}: entry {index} has no {key!r}")
        record: dict[str, Any] = {}
        for key, value in entry.items():  # scalars only: per-run lists and per-modality dicts stay in the JSON
            if isinstance(value, Mapping):
                record.update({f"{key}_{sub}": v for sub, v in value.items() if _is_scalar(v)})
            elif _is_scalar(value):
                record[key] = value
        for kind in ("minimal", "profile"):
            missing = [key for key in _COST_KEYS if f"{kind}_{key}" not in record]
            if missing:
                raise ValueError(f"{path}: entry {index} ({entry['model']}) {kind} lacks {', '.join(missing)}")
            record[f"{kind}_total_s"] = record[f"{kind}_build_s"] + record[f"{kind}_encode_s"]
        records.append(record)
    frame = pd.DataFrame(records)
    frame.attrs["source"] = shown(path)
    frame.attrs["machine"] = document.get("machine") if isinstance(document, Mapping) else None
    frame.attrs["date"] = min((str(r["date"])[:10] for r in records if r.get("date")), default=None)
    return frame


# -- tables for the eye -------------------------------------------------------------------


def _cell_format(column: str) -> Any:
    """How a column is shown, by the name the package gives it: bytes, seconds, ratios, errors."""

    def missing(formatter: Any) -> Any:
        return lambda value: (
            "—" if value is None or (isinstance(value, float) and math.isnan(value)) else formatter(value)
        )

    if column.endswith("_bytes") or column == "bytes_per_token":
        return missing(human_bytes)
    if column.endswith("_s"):
        return missing(lambda value: f"{value:.2f} s")
    if "ratio" in column or "_over_" in column:
        return missing(lambda value: f"{value:.3g}×")
    if column == "relative_error":
        return missing(lambda value: f"{value:+.0%}")
    return None


def show(frame: pd.DataFrame) -> Any:
    """``frame`` for the eye, a pandas Styler: bytes in kB/MB/GB, seconds to 2 decimals, ratios to 3 digits ("4×").

    Columns are recognized by the names the package gives them (``*_bytes``,
    ``*_s``, ``*ratio*``, ``*_over_*``, ``relative_error``); other floats show 3
    decimals and integers a thousands separator. Only the display rounds: the
    frame and the CSVs written from it keep every digit.
    """
    formats = {column: _cell_format(str(column)) for column in frame.columns}
    styler = frame.style.format({c: f for c, f in formats.items() if f is not None}, precision=3, thousands=",",
                                na_rep="—")  # fmt: skip
    return styler.hide(axis="index") if isinstance(frame.index, pd.RangeIndex) else styler
