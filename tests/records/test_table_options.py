"""Width tables keep the runtime options: (model, modality, options) is the key.

The widths are measured here on a tiny Qwen2.5-VL config, pruning off and on,
so the two settings differ by what the encoder emitted, not by a number typed in.
"""

import csv
import io
import json
from dataclasses import replace

import pytest

from ecwidth.cli.commands import main
from ecwidth.engines import releases
from ecwidth.errors import TableError
from ecwidth.measuring.measure import measure
from ecwidth.measuring.survey import rows_from_result
from ecwidth.records.table import COLUMNS, SCHEMA_1_COLUMNS, SCHEMA_2_COLUMNS, WidthTable
from ecwidth.serving.producer_config import producer_config
from tests.tiny_configs import tiny_config
from tests.width_tables import STAMP, toy_row

RATE = 0.25


@pytest.fixture(scope="module")
def both() -> WidthTable:
    """One model measured with pruning off and on, side by side."""
    config = tiny_config("qwen2_5_vl")
    off = measure(config, device="cpu", dtype="float32")
    on = measure(config, device="cpu", dtype="float32", video_pruning_rate=RATE)
    results = (off, on)
    return WidthTable(
        [
            replace(row, model="tiny-qwen2-5-vl")
            for result in results
            for row in rows_from_result(result, measured_at=STAMP)
        ]
    )


def test_a_table_holds_one_model_with_pruning_off_and_on(both):
    off, on = both.widths("tiny-qwen2-5-vl"), both.widths("tiny-qwen2-5-vl", video_pruning_rate=RATE)
    assert set(off) == set(on) == {"image", "video"}
    assert all(on[m] > off[m] for m in off)  # the engine's position channels, measured
    assert {tuple(sorted(row.options.items())) for row in both} == {(), (("video_pruning_rate", RATE),)}
    engine = {"name": "vllm", "version": "0.33.0"}
    assert producer_config(both, "tiny-qwen2-5-vl", video_pruning_rate=RATE) == {
        "mm_encoder_output_widths": on,
        "engine": engine,
    }
    assert producer_config(both, "tiny-qwen2-5-vl") == {"mm_encoder_output_widths": off, "engine": engine}


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_both_settings_round_trip_and_look_up(both, tmp_path, capsys, suffix):
    path = tmp_path / f"widths{suffix}"
    getattr(both, f"to_{suffix[1:]}")(path)
    assert WidthTable.read(path) == both
    for rate in (0.0, RATE):
        widths = both.widths("tiny-qwen2-5-vl", video_pruning_rate=rate)
        assert main(["lookup", str(path), "tiny-qwen2-5-vl", "video", "--video-pruning-rate", str(rate)]) == 0
        assert int(capsys.readouterr().out) == widths["video"]
    assert main(["lookup", str(path), "tiny-qwen2-5-vl", "image"]) == 0  # the engine's default: off
    assert int(capsys.readouterr().out) == both.widths("tiny-qwen2-5-vl")["image"]


def test_export_picks_one_setting_for_a_producer_and_keeps_every_setting_in_a_table(both, tmp_path, capsys):
    path = tmp_path / "widths.json"
    both.to_json(path)
    producer = ["--model", "tiny-qwen2-5-vl", "--format", "producer-json", "--video-pruning-rate", str(RATE)]
    assert main(["export", str(path), *producer]) == 0
    assert json.loads(capsys.readouterr().out) == producer_config(both, "tiny-qwen2-5-vl", video_pruning_rate=RATE)
    assert main(["export", str(path), "--format", "csv", "-o", str(tmp_path / "all.csv")]) == 0
    assert WidthTable.read(tmp_path / "all.csv") == both
    pruned = ["--format", "csv", "--video-pruning-rate", str(RATE), "-o", str(tmp_path / "on.csv")]
    assert main(["export", str(path), *pruned]) == 0
    assert WidthTable.read(tmp_path / "on.csv") == both.with_options(video_pruning_rate=RATE)
    assert main(["export", str(path), "--format", "md"]) == 0
    assert f"video_pruning_rate={RATE:g}" in capsys.readouterr().out


def test_a_setting_the_table_lacks_names_the_ones_it_has(both, tmp_path, capsys):
    path = tmp_path / "widths.json"
    both.to_json(path)
    assert main(["lookup", str(path), "tiny-qwen2-5-vl", "image", "--video-pruning-rate", "0.5"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("ecwidth: error:") and "video_pruning_rate=0.5" in error
    assert f"engine defaults; video_pruning_rate={RATE:g}" in error
    assert main(["lookup", str(path), "tiny-qwen2-5-vl", "image", "--video-pruning-rate", "1"]) == 2
    assert "[0, 1)" in capsys.readouterr().err


def test_merge_keys_rows_by_their_options(both):
    off = both.with_options(video_pruning_rate=0.0)
    on = both.with_options(video_pruning_rate=RATE)
    assert off.merge(on) == both  # different settings never conflict
    wider = [row.encoder_width + 1 for row in on]
    wrong = WidthTable(
        [
            replace(row, encoder_width=w, width_ratio=w / row.lm_hidden_size, predicted_width=w)
            for row, w in zip(on, wider)
        ]
    )
    with pytest.raises(
        TableError, match=rf"options=video_pruning_rate={RATE:g}, engine=vllm==0.33.0: \d+ here, \d+ in the other table"
    ):
        both.merge(wrong)


def test_options_are_validated_and_recorded_one_way():
    with pytest.raises(TableError, match="options: unknown runtime option.*mm_pruning"):
        WidthTable([toy_row("toy", "image", 8, options={"mm_pruning": 0.5})])
    with pytest.raises(TableError, match=r"options: video_pruning_rate must be in \[0, 1\)"):
        WidthTable([toy_row("toy", "image", 8, options={"video_pruning_rate": 2.0})])
    with pytest.raises(TableError, match="options must be an object"):
        WidthTable([toy_row("toy", "image", 8, options="video_pruning_rate=0.5")])
    default = WidthTable([toy_row("toy", "image", 8, options={"video_pruning_rate": 0})])
    assert default.rows[0].options == {} and default.width("toy", "image") == 8  # 0 is the engine's default
    with pytest.raises(TableError, match="duplicate rows for the same"):
        WidthTable([toy_row("toy", "image", 8), toy_row("toy", "image", 8, options={"video_pruning_rate": 0.0})])


def _old_table(table: WidthTable, path, columns: tuple[str, ...], schema: int) -> None:
    """``table`` written as an older ecwidth wrote it: only ``columns``, ``schema_version`` ``schema`` in JSON."""
    if path.suffix == ".json":
        document = json.loads(table.render_json())
        document.update(schema_version=schema, columns=list(columns))
        document["rows"] = [{column: row[column] for column in columns} for row in document["rows"]]
        path.write_text(json.dumps(document))
    else:
        records = list(csv.reader(io.StringIO(table.render_csv())))
        keep = [records[0].index(column) for column in columns]
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows([[record[at] for at in keep] for record in records])
        path.write_text(buffer.getvalue())


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_schema_1_tables_read_as_measured_with_the_engines_defaults(both, tmp_path, suffix):
    """A table written before rows had options or engines: neither column, schema_version 1 in JSON."""
    off = both.with_options(video_pruning_rate=0.0)
    path = tmp_path / f"old{suffix}"
    _old_table(off, path, SCHEMA_1_COLUMNS, 1)
    legacy = {"engine": releases.LEGACY.engine, "engine_version": releases.LEGACY.version}
    assert WidthTable.read(path) == WidthTable([replace(row, **legacy) for row in off])
    assert "options" in COLUMNS and "options" not in SCHEMA_1_COLUMNS


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_schema_2_tables_read_as_vllm_0_32(both, tmp_path, suffix):
    """A table written before rows named their engine release reads as vLLM 0.32.0's, options kept."""
    path = tmp_path / f"old{suffix}"
    _old_table(both, path, SCHEMA_2_COLUMNS, 2)
    old = WidthTable.read(path)
    assert old.engines() == ["vllm==0.32.0"] == [releases.LEGACY.key]
    assert old.widths("tiny-qwen2-5-vl", video_pruning_rate=RATE) == both.widths(
        "tiny-qwen2-5-vl", video_pruning_rate=RATE
    )
    assert producer_config(old, "tiny-qwen2-5-vl")["engine"] == {"name": "vllm", "version": "0.32.0"}
    assert set(COLUMNS) - set(SCHEMA_2_COLUMNS) == {"engine", "engine_version"}
    assert old.merge(both) == WidthTable([*old, *both])  # two releases side by side, never mixed
