"""Steps the notebooks share: choosing models, getting a measured table, output folders,
producer config files, and the benchmark's JSON.

The notebooks call the package and grow no logic of their own, so what they
have in common lives here, where it is written and tested once.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ecwidth.atomic import write_text_atomic
from ecwidth.catalog import catalog_names
from ecwidth.configs import name_models
from ecwidth.errors import EcwidthError, TableError
from ecwidth.table import WidthTable


# -- choosing models and getting their widths -------------------------------------------


def select_models(models: str | Iterable[str] | Mapping[str, str] = "all") -> dict[str, str]:
    """``{row name: model}`` from a notebook's ``models`` parameter, each model located before any work starts.

    ``"all"`` is the whole catalog; a string is one model or a comma-separated
    list (what ``papermill -p models a,b`` passes); any other iterable is a list
    of models; a mapping names its models. A model is anything ``ecwidth
    measure --model`` takes: a catalog name or hub id, a checkpoint folder or a
    config file. Rows are named after what was given, unless a mapping names them.

    Raises:
        ConfigError: A model cannot be found (suggests close catalog names, or how
            to make a hub id resolvable), or two get the same name.
        ValueError: The selection is empty.
    """
    if isinstance(models, str):
        models = catalog_names() if models.strip() == "all" else [m.strip() for m in models.split(",") if m.strip()]
    elif not isinstance(models, Mapping):
        models = [str(m) for m in models]
    if not models:
        raise ValueError("no models selected; pass catalog names, hub ids, folders or 'all' (see `ecwidth models`)")
    return name_models(models)


def check_survey(result: Any, *, allow_failures: bool = False) -> None:
    """Raise when a survey (``ecwidth.survey.Survey``) lost models, unless failures are allowed.

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
    progress: bool = True,
    allow_failures: bool = False,
) -> WidthTable:
    """The measured widths of ``models``: read from ``width_table`` when given, else measured now.

    A table read from a file is restricted to the selected models (all of its
    models when ``models`` is "all") and every selected model must be in it.

    Raises:
        ConfigError: A model cannot be found (see ``select_models``).
        TableError: The table file is invalid or lacks a selected model.
        EcwidthError: Measuring failed for some model and ``allow_failures`` is off.
    """
    if width_table is not None:
        table = WidthTable.read(width_table)
        if isinstance(models, str) and models.strip() == "all":
            return table
        return WidthTable([row for name in select_models(models) for row in table.for_model(name)])
    from ecwidth.survey import survey

    result = survey(select_models(models), device=device, dtype=dtype, progress=progress)
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


def write_producer_configs(table: WidthTable, directory: str | os.PathLike[str]) -> list[Path]:
    """Write ``producer_config_file(directory, model)`` = ``{"mm_encoder_output_widths": {...}}`` for every model, atomically.

    Raises:
        TableError: A model's widths are predicted, not measured.
        OSError: A file cannot be written.
    """
    rendered = {producer_config_file(directory, model): table.render_producer_config(model) for model in table.models()}
    for path, text in rendered.items():
        write_text_atomic(path, text)
    return list(rendered)


def check_producer_configs(table: WidthTable, paths: Iterable[str | os.PathLike[str]]) -> pd.DataFrame:
    """Read producer config files back and compare each with the table, one row per (model, modality).

    Columns: model, modality, table_width, file_width, round_trip_ok. The model
    is the one whose ``producer_config_file`` the file is named like, else the file's stem.

    Raises:
        TableError: A file is not a ``{"mm_encoder_output_widths": {str: int}}`` object,
            or its modalities differ from the table's.
    """
    models = {producer_config_file("", model).name: model for model in table.models()}
    records = []
    for path in map(Path, paths):
        model = models.get(path.name, path.stem)
        document = json.loads(path.read_text())
        widths = document.get("mm_encoder_output_widths") if isinstance(document, dict) else None
        if not isinstance(widths, dict) or set(document) != {"mm_encoder_output_widths"}:
            raise TableError(f"{path}: expected exactly {{'mm_encoder_output_widths': {{modality: width}}}}")
        expected = table.widths(model)
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
    ``minimal_total_s``/``profile_total_s`` are added.

    Raises:
        ValueError: The file is not valid JSON or an entry lacks a required key (named).
    """
    path = resolve_path(path)
    if not path.is_file():
        print(f"note: {path} is not there yet; run `python benchmarks/measure_cost.py` to produce it. Skipping.")
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
    return pd.DataFrame(records)
