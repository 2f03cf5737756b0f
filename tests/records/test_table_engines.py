"""Width tables name their engine release: (model, modality, options, engine release) is the key.

The rows are table fixtures ("toy-*" models), not widths claimed for real models; the
modality keys differ by engine as Kimi-K2.5's do (``vision_chunk`` under vLLM, ``image`` under SGLang).
"""

import json
from dataclasses import replace
from functools import partial

import pytest

from ecwidth.engines import releases
from ecwidth.errors import TableError, UnknownEngineError
from ecwidth.records.table import ALL_ENGINES, COLUMNS, SCHEMA_VERSION, WidthTable
from ecwidth.serving.producer_config import producer_config, render_producer_config
from tests.width_tables import engine_fields, toy_row

VLLM_32, VLLM_33, SGLANG = (releases.release(key) for key in ("vllm==0.32.0", "vllm==0.33.0", "sglang==0.5.23"))


@pytest.fixture
def side_by_side() -> WidthTable:
    """toy-k under vLLM 0.33.0 and SGLang 0.5.23, toy-s under SGLang only."""
    return WidthTable(
        [
            toy_row("toy-k", "vision_chunk", 7168, engine=VLLM_33),
            toy_row("toy-k", "image", 7168, engine=SGLANG),
            toy_row("toy-k", "audio", 1280, engine=SGLANG),
            toy_row("toy-s", "image", 64, engine="sglang"),
        ]
    )


def test_engine_columns_follow_options_and_the_schema_is_3():
    at = COLUMNS.index("options")
    assert COLUMNS[at + 1 : at + 3] == ("engine", "engine_version")
    assert SCHEMA_VERSION == 3
    row = toy_row("toy", "image", 8)  # the factory's default, as WidthRow's
    assert (row.engine, row.engine_version) == (releases.DEFAULT.engine, releases.DEFAULT.version)


def test_one_table_holds_a_model_under_two_engines(side_by_side):
    assert side_by_side.engines() == ["sglang==0.5.23", "vllm==0.33.0"]
    assert side_by_side.widths("toy-k") == {"vision_chunk": 7168}  # two releases, the default among them
    assert side_by_side.widths("toy-k", engine="vllm==0.33.0") == {"vision_chunk": 7168}
    assert side_by_side.widths("toy-k", engine="sglang") == {"image": 7168, "audio": 1280}
    assert side_by_side.widths("toy-k", engine=SGLANG) == side_by_side.widths("toy-k", engine="SGLang==0.5.23")
    assert side_by_side.width("toy-k", "audio", engine="sglang==0.5.23") == 1280
    assert side_by_side.widths("toy-s") == {"image": 64}  # the model's only release, not the table's default
    assert len(side_by_side.for_model("toy-k", engine=ALL_ENGINES)) == 3
    assert side_by_side.for_model("toy-k", engine="sglang").engines() == ["sglang==0.5.23"]
    assert [r.model for r in side_by_side.with_options(video_pruning_rate=0, engine="sglang")] == ["toy-k"] * 2 + [
        "toy-s"
    ]
    assert len(side_by_side.with_options(video_pruning_rate=0, engine=ALL_ENGINES)) == 4
    rows = [(r.model, r.engine, r.modality) for r in side_by_side]
    assert rows == sorted(rows)  # sorted by model, then release, then modality


def test_a_release_the_rows_lack_names_the_ones_they_hold(side_by_side):
    with pytest.raises(TableError, match=r"model 'toy-s' has no rows for vllm==0.33.0; its rows are for: sglang"):
        side_by_side.widths("toy-s", engine="vllm")
    with pytest.raises(TableError, match=r"no rows for vllm==0.32.0; its rows are for: sglang==0.5.23, vllm==0.33.0"):
        producer_config(side_by_side, "toy-k", engine="vllm==0.32.0")
    with pytest.raises(UnknownEngineError, match=r"unknown engine 'trt'.*known: vllm==0.32.0, vllm==0.33.0"):
        side_by_side.widths("toy-k", engine="trt")
    with pytest.raises(UnknownEngineError, match="known"):
        side_by_side.widths("toy-k", engine="vllm==0.99.0")
    for lookup in (
        side_by_side.widths,
        partial(producer_config, side_by_side),
        partial(render_producer_config, side_by_side),
    ):
        with pytest.raises(TableError, match="for one engine release"):  # "all" would mix the releases' widths
            lookup("toy-k", engine=ALL_ENGINES)


def test_two_releases_without_the_default_must_be_named():
    table = WidthTable([toy_row("toy", "image", 64, engine=VLLM_32), toy_row("toy", "image", 64, engine=SGLANG)])
    with pytest.raises(
        TableError,
        match=r"model 'toy' holds rows for 2 engine releases \(sglang==0.5.23, vllm==0.32.0\), none of them the "
        r"default \(vllm==0.33.0\); name one with engine=",
    ):
        table.widths("toy")
    with pytest.raises(TableError, match="name one with engine="):
        table.with_options(video_pruning_rate=0)
    assert table.widths("toy", engine="vllm==0.32.0") == {"image": 64}
    assert WidthTable([toy_row("toy", "image", 64, engine=VLLM_32)]).widths("toy") == {"image": 64}  # the only one


def test_merge_never_mixes_releases(side_by_side):
    theirs = WidthTable([toy_row("toy-k", "image", 4096, engine=VLLM_33), toy_row("toy-s", "image", 32)])
    merged = side_by_side.merge(theirs)  # same model and modality, other release: no conflict
    assert merged.widths("toy-k", engine="sglang") == {"image": 7168, "audio": 1280}
    assert merged.widths("toy-k") == {"image": 4096, "vision_chunk": 7168}
    assert len(merged) == 6
    clash = WidthTable([toy_row("toy-k", "image", 4096, engine=SGLANG)])
    with pytest.raises(
        TableError, match=r"modality='image', options=engine defaults, engine=sglang==0.5.23: 7168 here"
    ):
        side_by_side.merge(clash)
    with pytest.raises(TableError, match=r"duplicate rows .*engine=sglang==0.5.23 at rows \[0, 1\]"):
        WidthTable([toy_row("toy", "image", 8, engine=SGLANG), toy_row("toy", "image", 8, engine=SGLANG)])


def test_producer_config_says_which_release_it_is_for(side_by_side):
    assert producer_config(side_by_side, "toy-k", engine="sglang") == {
        "mm_encoder_output_widths": {"image": 7168, "audio": 1280},
        "engine": {"name": "sglang", "version": "0.5.23"},
    }
    text = render_producer_config(side_by_side, "toy-k")
    assert json.loads(text) == {
        "mm_encoder_output_widths": {"vision_chunk": 7168},
        "engine": {"name": "vllm", "version": "0.33.0"},
    }


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_releases_round_trip(side_by_side, tmp_path, suffix):
    path = tmp_path / f"widths{suffix}"
    getattr(side_by_side, f"to_{suffix[1:]}")(path)
    assert WidthTable.read(path) == side_by_side


def test_markdown_and_html_show_the_release(side_by_side):
    markdown = side_by_side.render_markdown()
    assert f"under {SGLANG} and {VLLM_33}." in markdown
    header = next(line for line in markdown.splitlines() if line.startswith("| model"))
    assert header.startswith("| model | modality | engine | encoder_width |")
    assert f"| toy-k | image | {SGLANG} | 7168 |" in markdown
    assert f"| toy-k | vision_chunk | {VLLM_33} | 7168 |" in markdown
    html = side_by_side._repr_html_()
    assert f"<td>{SGLANG}</td>" in html and f"<td>{VLLM_33}</td>" in html


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"engine": "vllm", "engine_version": "9.9.9"}, "engine 'vllm' version '9.9.9' is not a release ecwidth knows"),
        ({"engine": "trt-llm", "engine_version": "1.0"}, "engine 'trt-llm' version '1.0' is not a release"),
        ({"engine": "vLLM", "engine_version": "0.33.0"}, "engine 'vLLM' version '0.33.0' is not a release"),
        ({"engine": 3}, "engine must be a string, got 3"),
        ({"engine_version": None}, "engine_version must be a string, got None"),
    ],
    ids=["unknown-version", "unknown-engine", "not-the-key-spelling", "engine-int", "version-none"],
)
def test_an_unknown_release_in_a_table_names_the_known_ones(tmp_path, changes, expected):
    with pytest.raises(TableError, match=expected) as caught:
        WidthTable([replace(toy_row("toy", "image", 8), **changes)])
    if "not a release" in expected:
        assert f"known: {releases.known()}" in str(caught.value)
    document = json.loads(WidthTable([toy_row("toy", "image", 8)]).render_json())
    document["rows"][0].update(changes)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(document))
    with pytest.raises(TableError, match=rf"^{path} row 0 \(model='toy', modality='image'\): .*{expected}"):
        WidthTable.read(path)


def test_schema_3_rows_must_name_their_release(tmp_path):
    document = json.loads(WidthTable([toy_row("toy", "image", 8)]).render_json())
    del document["rows"][0]["engine"], document["rows"][0]["engine_version"]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(document))
    with pytest.raises(TableError, match=r"missing column\(s\) engine, engine_version"):
        WidthTable.read(path)


def test_factory_rows_take_a_release():
    assert engine_fields("sglang") == {"engine": "sglang", "engine_version": "0.5.23"}
    assert toy_row("toy", "image", 8, engine="vllm==0.32.0").engine_version == "0.32.0"
