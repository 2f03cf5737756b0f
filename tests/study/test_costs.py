"""The notebooks' frames of bytes per item, items per buffer and buffer plans (ecwidth.study.costs)."""

import matplotlib
import matplotlib.pyplot as plt
import pytest

from ecwidth.families.adapter import find_adapter
from ecwidth.reading.catalog import catalog_entry
from ecwidth.records.table import WidthTable
from ecwidth.serving import sizing
from ecwidth.study import costs, figures
from tests.toy import toy_spec
from tests.width_tables import table_of, toy_row

DEEPSTACK = "qwen3-vl-2b-instruct"


def test_transfer_costs_price_every_item_the_model_takes():
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}})
    priced = costs.transfer_costs(table, serving_dtype="bfloat16")
    assert list(priced.columns) == list(costs.TRANSFER_COLUMNS)
    assert list(priced["item"]) == ["image 448×448", "image 1024×1024", "video 8 frames 448×448"]  # no audio
    assert list(priced["tokens"]) == [196, 1024, 784]
    assert (priced["item_bytes"] == priced["tokens"] * 8192 * 2).all()
    assert list(priced["items_per_buffer"]) == [311, 59, 77]
    hidden = catalog_entry(DEEPSTACK).config["text_config"]["hidden_size"]
    assert (priced["lm_hidden_size"] == hidden).all()
    assert list(priced["items_per_buffer_at_hidden"]) == [10**9 // (t * hidden * 2) for t in (196, 1024, 784)]
    assert (priced["items_short"] == priced["items_per_buffer_at_hidden"] - priced["items_per_buffer"]).all()
    assert (priced["deepstack_levels"] == 3).all()
    assert set(priced["note"]) == {""}
    fp32 = costs.transfer_costs(table, serving_dtype="float32", buffer_bytes=2 * 10**9)
    assert (fp32["item_bytes"] == 2 * priced["item_bytes"]).all()
    assert list(fp32["items_per_buffer"]) == [311, 59, 77]


def test_transfer_costs_for_audio():
    name = "qwen2-audio-7b-instruct"
    if find_adapter(catalog_entry(name).config["model_type"]) is None:
        pytest.skip("qwen2_audio adapter not there yet")
    priced = costs.transfer_costs(table_of({name: {"audio": 4096}}))
    assert list(priced["item"]) == ["audio 30 s"]
    tokens = priced["tokens"].iloc[0]
    assert 0 < tokens < 30 * 100  # fewer embeddings than 10 ms mel frames
    assert priced["item_bytes"].iloc[0] == tokens * 4096 * 2


def test_a_family_without_a_token_rule_keeps_its_items_unpriced_with_a_note(tokenless_family):
    table = WidthTable(
        [
            toy_row("toy", "image", 24, deepstack_levels=2),
            toy_row("toy", "audio", 8),
            toy_row("toy-tokenless", "image", 24, deepstack_levels=2),
        ]
    )
    specs = {"toy": toy_spec("toy"), "toy-tokenless": toy_spec("toy-tokenless", tokenless_family)}
    frame = costs.transfer_costs(table, specs=specs)
    assert list(frame.columns) == list(costs.TRANSFER_COLUMNS)
    toy = frame[frame["model"] == "toy"]
    assert list(toy["tokens"]) == [784, 4096, 300]  # 16-pixel patches; 10 tokens a second of audio
    assert (toy["item_bytes"] == toy["tokens"] * toy["encoder_width"] * 2).all()
    assert set(toy["note"]) == {""}
    tokenless = frame[frame["model"] == "toy-tokenless"]
    assert list(tokenless["item"]) == ["image 448×448", "image 1024×1024"]  # its rows stay, unpriced
    assert set(tokenless["note"]) == {sizing.NO_TOKEN_RULE}
    unpriced = ["tokens", "item_bytes", "items_per_buffer", "items_per_buffer_at_hidden", "items_short", "item_mib"]
    assert tokenless[unpriced].isna().all().all()
    assert (tokenless["bytes_per_token"] == 48).all()  # the width still prices a token

    matplotlib.use("Agg")
    figure = figures.transfer_costs(frame)  # one heat map per quantity, a cell for every (model, item): no gaps
    for axes in figure.axes:
        texts = [text.get_text() for text in axes.texts]
        assert len(texts) == frame["model"].nunique() * frame["item"].nunique()
        assert texts.count("no token rule") == len(tokenless)
    labels = [label.get_text() for label in figure.axes[0].get_yticklabels()]
    assert {label.split(" ◆ ")[0] for label in labels} == {"toy", "toy-tokenless"} and all(
        "◆ 2 " in label for label in labels
    )
    plt.close(figure)
    plt.close(figures.transfer_costs(frame[frame["model"] == "toy-tokenless"]))  # nothing priced at all still draws


def test_width_summary_prices_a_token_in_the_serving_dtype():
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}})
    summary = costs.width_summary(table, "float16")
    assert list(summary["bytes_per_token"]) == [16384, 16384]
    assert list(summary["width_ratio"]) == [4.0, 4.0]
    assert set(summary["serving_dtype"]) == {"float16"}


def test_transfer_costs_match_size_transfers_row_for_row():
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}})
    priced = costs.transfer_costs(table, buffer_bytes=2**30).set_index("item")
    sized = sizing.size_transfers(DEEPSTACK, table.widths(DEEPSTACK), buffer_bytes=2**30)
    for modality in sized.modalities:
        for cost in modality.items:
            row = priced.loc[cost.label]
            assert (row["tokens"], row["item_bytes"], row["items_per_buffer"]) == (
                cost.tokens,
                cost.bytes,
                cost.items_per_buffer,
            )


def test_buffer_plans_are_the_export_for_every_model(tokenless_family):
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}})
    plans = costs.buffer_plans(table, serving_dtype="float16")
    assert list(plans.columns) == list(costs.PLAN_COLUMNS)
    assert list(plans["modality"]) == ["image", "video"]
    expected = sizing.size_transfers(DEEPSTACK, {"image": 8192, "video": 8192}, serving_dtype="float16").buffer_plan()
    for row in plans.itertuples():
        plan = expected["modalities"][row.modality]
        assert [getattr(row, key) for key in sizing.PLAN_KEYS] == [plan[key] for key in sizing.PLAN_KEYS]
        assert row.max_bytes_at_hidden == row.max_tokens_per_item * row.lm_hidden_size * 2
    assert (plans["max_bytes_per_item"] == 4 * plans["max_bytes_at_hidden"]).all()  # 4x the hidden size

    tokenless = costs.buffer_plans(
        WidthTable([toy_row("toy-tokenless", "image", 24)]),
        specs={"toy-tokenless": toy_spec("toy-tokenless", tokenless_family)},
    )
    assert tokenless["max_tokens_per_item"].isna().all() and set(tokenless["note"]) == {sizing.NO_TOKEN_RULE}
