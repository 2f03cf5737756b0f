"""Width tables and rows with chosen widths, for tests that need no measurement."""

from dataclasses import replace

from ecwidth.engines import releases
from ecwidth.families.adapter import find_adapter
from ecwidth.measuring.measure import MeasureResult
from ecwidth.measuring.survey import rows_from_result
from ecwidth.reading.configs import resolve_spec
from ecwidth.records.table import WidthRow, WidthTable

STAMP = "2026-01-01T00:00:00+00:00"


def engine_fields(engine: object = None) -> dict[str, str]:
    """``{"engine": ..., "engine_version": ...}`` of a release as ``releases.release`` takes it (None: the default)."""
    release = releases.release(engine)
    return {"engine": release.engine, "engine_version": release.version}


def toy_row(
    model: str, modality: str, width: int, *, lm_hidden_size: int = 16, engine: object = None, **changes
) -> WidthRow:
    """A measured row with made-up provenance, for models that are not in the catalog.

    ``engine`` is the release it answers for (``"sglang==0.5.23"``, a ``Release``; None: ``releases.DEFAULT``).
    """
    values = dict(
        model=model, modality=modality, options={}, **engine_fields(engine), encoder_width=width,
        lm_hidden_size=lm_hidden_size,
        width_ratio=width / lm_hidden_size, deepstack_levels=0, source="measured", predicted_width=width,
        matches_prediction=True, ecwidth_version="0.1.0", torch_version="2.13.0", transformers_version="5.24.0",
        device="cpu", dtype="float32", dummy="minimal", measured_at=STAMP, config_sha256="ab" * 32,
    )  # fmt: skip
    return WidthRow(**{**values, **changes})


def table_of(
    widths_by_model: dict[str, dict[str, int]], *, source: str = "measured", engine: object = None
) -> WidthTable:
    """A width table with the given widths (not measured here) and each model's real config provenance.

    ``engine`` is the release every row answers for (None: ``releases.DEFAULT``).
    """
    rows = []
    for name, widths in widths_by_model.items():
        spec = resolve_spec(name)
        adapter = find_adapter(spec.model_type)
        result = MeasureResult(
            model=name,
            model_type=spec.model_type,
            lm_hidden_size=adapter.lm_hidden_size(spec.config),
            widths=widths,
            predicted=adapter.predict(spec.config),
            dummy="minimal",
            device="cpu",
            dtype="float32",
            deepstack_levels={m: adapter.deepstack_levels(spec.config, m) for m in widths},
            config_sha256=spec.config_sha256,
        )
        rows += rows_from_result(result, measured_at=STAMP)
    rows = [replace(row, **engine_fields(engine)) for row in rows]
    if source != "measured":
        rows = [replace(row, source=source, dummy="none") for row in rows]
    return WidthTable(rows)
