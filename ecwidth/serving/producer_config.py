"""One model's producer config from a width table: the EC producer's ``mm_encoder_output_widths`` and its engine.

``{"mm_encoder_output_widths": {modality: width}, "engine": {"name": "vllm", "version": "0.33.0"}}``:
the mapping a serving engine records on its EC transfer config when the
producer starts (``ecwidth.serving.producer`` measures it there), read from a
table instead, so a deployment can be checked, or sized, before it starts.
``ecwidth export --format producer-json`` writes ``render_producer_config``.
"""

from __future__ import annotations

import json
from typing import Any

from ecwidth.engines.releases import Release
from ecwidth.errors import TableError
from ecwidth.records.rows import release_of, short_repr
from ecwidth.records.table import WidthTable, one_release


def producer_config(
    table: WidthTable, model: str, *, video_pruning_rate: float = 0.0, engine: str | Release | None = None
) -> dict[str, Any]:
    """The EC producer field serving engines keep, and the release it is for, from ``table``'s rows of ``model``.

    A producer runs one engine release with one setting, so the config is for
    the rows of that release (``engine`` as ``WidthTable`` takes it) measured
    with ``video_pruning_rate`` (0: off, the engine's default).

    Raises:
        TableError: ``model`` is not in the table or has no rows with that
            release or setting, or any of its rows is predicted: a producer's
            transfer buffers must not be sized from a guess.
        UnsupportedOptionError: ``video_pruning_rate`` is out of range.
        UnknownEngineError: ``engine`` names no release ecwidth knows.
    """
    widths, release = producer_widths(table, model, video_pruning_rate=video_pruning_rate, engine=engine)
    return {"mm_encoder_output_widths": widths, "engine": {"name": release.engine, "version": release.version}}


def producer_widths(
    table: WidthTable, model: str, *, video_pruning_rate: float = 0.0, engine: str | Release | None = None
) -> tuple[dict[str, int], Release]:
    """``producer_config``'s widths, and the release the table's rows answer for as a ``Release`` (a buffer
    plan prices them for it, without turning the config's ``engine`` back into a name to parse).

    Raises:
        As ``producer_config``.
    """
    rows = table.for_model(model, video_pruning_rate=video_pruning_rate, engine=one_release(engine)).rows
    predicted = [row.modality for row in rows if row.source == "predicted"]
    if predicted:
        raise TableError(
            f"refusing to build a producer config for {short_repr(model)}: the width of {', '.join(predicted)} "
            "is predicted, not measured, and a producer must not be sized from a guess. "
            "Measure the model first, then export the measured table."
        )
    return {row.modality: row.encoder_width for row in rows}, release_of(rows[0])


def render_producer_config(
    table: WidthTable, model: str, *, video_pruning_rate: float = 0.0, engine: str | Release | None = None
) -> str:
    """The JSON text of one model's producer config file, as ``ecwidth export`` and the notebooks write it.

    Raises:
        TableError, UnsupportedOptionError, UnknownEngineError: As ``producer_config``.
    """
    config = producer_config(table, model, video_pruning_rate=video_pruning_rate, engine=engine)
    return json.dumps(config, indent=2, sort_keys=True) + "\n"
