"""Bytes per item and items per buffer (ecwidth.study.costs)."""

import matplotlib
import matplotlib.pyplot as plt
import pytest
import torch

from ecwidth.adapter import ItemSize, find_adapter
from ecwidth.catalog import catalog_entry
from ecwidth.errors import NoTokenRuleError
from ecwidth.study import costs, figures
from ecwidth.table import WidthTable

from toy import toy_spec
from width_tables import table_of, toy_row

DEEPSTACK = "qwen3-vl-2b-instruct"


def test_dtype_bytes():
    assert costs.dtype_bytes("bfloat16") == 2
    assert costs.dtype_bytes("float16") == 2
    assert costs.dtype_bytes("float32") == 4
    assert costs.dtype_bytes("float8_e4m3fn") == 1
    assert costs.dtype_bytes(torch.bfloat16) == 2
    assert costs.dtype_bytes("torch.float32") == 4
    with pytest.raises(ValueError, match="unknown serving dtype 'int4'"):
        costs.dtype_bytes("int4")


def test_bytes_and_items_per_buffer():
    assert costs.bytes_per_token(8192, "bfloat16") == 16384
    assert costs.bytes_per_token(8192, "float32") == 32768
    assert costs.item_bytes(196, 8192, "bfloat16") == 196 * 8192 * 2 == 3_211_264
    assert costs.items_per_buffer(3_211_264) == 311  # floor(10**9 / 3211264)
    assert costs.items_per_buffer(3_211_264, 2**30) == 334
    assert costs.items_per_buffer(2 * 10**9) == 0  # an item larger than the buffer does not fit at all
    with pytest.raises(ValueError, match="positive"):
        costs.items_per_buffer(0)


def test_typical_items_are_the_four_the_study_prices():
    assert [item.size for item in costs.TYPICAL_ITEMS] == [
        ItemSize("image", height=448, width=448),
        ItemSize("image", height=1024, width=1024),
        ItemSize("video", height=448, width=448, frames=8),
        ItemSize("audio", seconds=30.0),
    ]


def test_item_tokens_follow_the_qwen3_vl_processor():
    # 32-pixel merged patches: 448/32 = 14 -> 196 tokens; 1024/32 = 32 -> 1024; 8 frames in pairs -> 4 x 196.
    assert costs.item_tokens(DEEPSTACK, ItemSize("image", height=448, width=448)) == 196
    assert costs.item_tokens(DEEPSTACK, ItemSize("image", height=1024, width=1024)) == 1024
    assert costs.item_tokens(DEEPSTACK, ItemSize("video", height=448, width=448, frames=8)) == 784


def test_transfer_costs_price_every_item_the_model_takes():
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}})
    priced = costs.transfer_costs(table, serving_dtype="bfloat16")
    assert list(priced.columns) == list(costs.TRANSFER_COLUMNS)
    assert list(priced["item"]) == ["image 448×448", "image 1024×1024", "video 8 frames 448×448"]  # no audio
    assert list(priced["tokens"]) == [196, 1024, 784]
    assert (priced["item_bytes"] == priced["tokens"] * 8192 * 2).all()
    assert list(priced["items_per_buffer"]) == [311, 59, 77]
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
    with pytest.raises(NoTokenRuleError):
        costs.item_tokens(specs["toy-tokenless"], ItemSize("image", height=448, width=448))
    frame = costs.transfer_costs(table, specs=specs)
    assert list(frame.columns) == list(costs.TRANSFER_COLUMNS)
    toy = frame[frame["model"] == "toy"]
    assert list(toy["tokens"]) == [784, 4096, 300]  # 16-pixel patches; 10 tokens a second of audio
    assert (toy["item_bytes"] == toy["tokens"] * toy["encoder_width"] * 2).all()
    assert set(toy["note"]) == {""}
    tokenless = frame[frame["model"] == "toy-tokenless"]
    assert list(tokenless["item"]) == ["image 448×448", "image 1024×1024"]  # its rows stay, unpriced
    assert set(tokenless["note"]) == {costs.NO_TOKEN_RULE} == {"no token rule for this family"}
    assert tokenless[["tokens", "item_bytes", "items_per_buffer", "item_mib"]].isna().all().all()
    assert (tokenless["bytes_per_token"] == 48).all()  # the width still prices a token

    matplotlib.use("Agg")
    for draw in (figures.item_bytes, figures.items_per_buffer):
        figure = draw(frame)
        labels = [label.get_text() for label in figure.axes[0].get_yticklabels()]
        assert "toy-tokenless ◆DS×2 (no token rule)" in labels and "toy ◆DS×2" in labels
        plt.close(figure)
        plt.close(draw(frame[frame["model"] == "toy-tokenless"]))  # nothing priced at all still draws


def test_width_summary_prices_a_token_in_the_serving_dtype():
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}})
    summary = costs.width_summary(table, "float16")
    assert list(summary["bytes_per_token"]) == [16384, 16384]
    assert list(summary["width_ratio"]) == [4.0, 4.0]
    assert set(summary["serving_dtype"]) == {"float16"}
