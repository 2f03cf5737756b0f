"""Width tables with chosen widths and each model's real catalog provenance, for tests that need no measurement."""

from dataclasses import replace

from ecwidth.adapter import find_adapter
from ecwidth.configs import resolve_spec
from ecwidth.measure import MeasureResult
from ecwidth.survey import rows_from_result
from ecwidth.table import WidthTable

STAMP = "2026-01-01T00:00:00+00:00"


def table_of(widths_by_model: dict[str, dict[str, int]], *, source: str = "measured") -> WidthTable:
    """A width table with the given widths (not measured here) and each model's real config provenance."""
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
    if source != "measured":
        rows = [replace(row, source=source, dummy="none") for row in rows]
    return WidthTable(rows)
