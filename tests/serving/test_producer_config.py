"""A producer config from a width table: its shape, its one rendering, and the refusal to size from a guess.

The rows are table fixtures ("toy-*" models), not widths claimed for real models.
"""

import pytest

from ecwidth.errors import TableError
from ecwidth.records.table import WidthTable
from ecwidth.serving.producer_config import producer_config, render_producer_config
from tests.width_tables import toy_row


@pytest.fixture
def table() -> WidthTable:
    return WidthTable([toy_row("toy-a", "video", 64), toy_row("toy-a", "image", 64), toy_row("toy-b", "audio", 16)])


def test_producer_config_shape(table):
    assert producer_config(table, "toy-a") == {
        "mm_encoder_output_widths": {"image": 64, "video": 64},
        "engine": {"name": "vllm", "version": "0.33.0"},
    }


def test_producer_config_file_has_one_rendering(table, tmp_path, capsys):
    """`ecwidth export --format producer-json` and the notebooks' files are the same bytes."""
    from ecwidth.cli.commands import main
    from ecwidth.study.notebook import write_producer_configs

    text = render_producer_config(table, "toy-a")
    assert text == (
        '{\n  "engine": {\n    "name": "vllm",\n    "version": "0.33.0"\n  },\n'
        '  "mm_encoder_output_widths": {\n    "image": 64,\n    "video": 64\n  }\n}\n'
    )
    table.to_json(tmp_path / "t.json")
    assert main(["export", str(tmp_path / "t.json"), "--model", "toy-a", "--format", "producer-json"]) == 0
    assert capsys.readouterr().out == text
    (written,) = [p for p in write_producer_configs(table, tmp_path / "producer") if p.stem == "toy-a"]
    assert written.read_text() == text


def test_producer_config_refuses_predicted_rows():
    guessed = WidthTable(
        [toy_row("toy-a", "image", 64), toy_row("toy-a", "video", 64, source="predicted", dummy="none")]
    )
    with pytest.raises(TableError, match=r"video is predicted.*Measure the model first"):
        producer_config(guessed, "toy-a")
    with pytest.raises(TableError, match=r"models in the table: \['toy-a'\]"):
        producer_config(guessed, "toy-z")
