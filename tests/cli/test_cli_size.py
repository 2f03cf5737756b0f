"""`ecwidth size` and `ecwidth export --format buffer-plan` as a user runs them, with clear errors.

Widths are measured on a tiny Qwen3-VL config and checked against its config
fields; token counts follow the Qwen-VL processor arithmetic (32-pixel merged
patches at ``patch_size`` 16).
"""

import json

import pytest

from ecwidth.cli.commands import main
from ecwidth.reading.catalog import catalog_entry
from ecwidth.records.table import WidthTable
from ecwidth.serving import sizing
from tests.tiny_configs import tiny_qwen3_vl, tiny_text_only
from tests.width_tables import table_of, toy_row

DEEPSTACK = "qwen3-vl-2b-instruct"


@pytest.fixture
def config_path(tmp_path):
    path = tmp_path / "tiny-qwen3-vl" / "config.json"
    path.parent.mkdir()
    path.write_text(json.dumps(tiny_qwen3_vl(levels=3)))
    return path


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


def error_line(capsys, *argv) -> str:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith("ecwidth: error: ") and err.count("\n") == 1
    return err


def test_size_json_prices_the_measured_width(capsys, config_path):
    config = tiny_qwen3_vl(levels=3)
    width = config["vision_config"]["out_hidden_size"] * 4
    hidden = config["text_config"]["hidden_size"]
    code, out, _ = run(
        capsys, "size", config_path, "--device", "cpu", "--buffer", "1GiB", "--item", "image:1024x1024",
        "--item", "video:8x448x448", "--json",
    )  # fmt: skip
    assert code == 0
    printed = json.loads(out)
    assert (printed["model"], printed["lm_hidden_size"], printed["buffer_bytes"]) == ("tiny-qwen3-vl", hidden, 2**30)
    assert printed["measured"]["dummy"] == "minimal" and printed["options"] == {}
    image, video = printed["modalities"]["image"], printed["modalities"]["video"]
    assert image["width"] == video["width"] == width
    assert image["bytes_per_token"] == width * 2
    (item,) = image["items"]
    assert (item["item"], item["tokens"], item["bytes"]) == ("image 1024×1024", 1024, 1024 * width * 2)
    assert item["items_per_buffer"] == 2**30 // item["bytes"]
    assert item["items_per_buffer_at_hidden"] == 2**30 // (1024 * hidden * 2)
    assert video["items"][0]["tokens"] == 4 * 14 * 14  # 8 frames in pairs, 448 / 32 = 14 a side
    assert image["largest"]["bytes"] == image["largest"]["tokens"] * width * 2


def test_size_prints_units_and_the_hidden_size_comparison(capsys, config_path):
    code, out, _ = run(capsys, "size", config_path, "--device", "cpu", "--serving-dtype", "float32")
    assert code == 0
    width = tiny_qwen3_vl(levels=3)["vision_config"]["out_hidden_size"] * 4
    assert f"image: width {width} (" in out and f"{width * 4} bytes per token" in out
    assert "buffer: 1000000000 bytes = 953.67 MiB (1.00 GB)" in out
    assert "image 448×448" in out and "video 8 frames 448×448" in out and "audio" not in out
    assert "a slot sized from hidden_size for the largest image" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--item", "audio:30s"], "has no audio width to price; it has image, video"),
        (["--item", "image:1024"], "invalid item 'image:1024'"),
        (["--buffer", "1 GX"], "invalid buffer size '1 GX'"),
    ],
)
def test_size_refuses_bad_items_and_buffers_in_one_line(capsys, config_path, args, message):
    assert message in error_line(capsys, "size", config_path, "--device", "cpu", *args)


def test_size_of_a_text_only_model_is_one_error(capsys, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(tiny_text_only()))
    assert "no multimodal encoder" in error_line(capsys, "size", path, "--device", "cpu")


def test_buffer_plan_export_agrees_with_the_table_and_the_token_rules(capsys, tmp_path):
    vision = catalog_entry(DEEPSTACK).config["vision_config"]
    width = vision["out_hidden_size"] * (1 + len(vision["deepstack_visual_indexes"]))
    path = tmp_path / "widths.json"
    table_of({DEEPSTACK: {"image": width, "video": width}}).to_json(path)
    code, out, _ = run(capsys, "export", path, "--model", DEEPSTACK, "--format", "buffer-plan")
    assert code == 0
    plan = json.loads(out)
    assert plan == sizing.size_transfers(DEEPSTACK, WidthTable.read(path).widths(DEEPSTACK)).buffer_plan()
    image = plan["modalities"]["image"]
    assert list(image) == list(sizing.PLAN_KEYS)
    assert (image["width"], image["serving_dtype"], image["bytes_per_token"]) == (width, "bfloat16", width * 2)
    assert image["max_bytes_per_item"] == image["max_tokens_per_item"] * width * 2
    code, out, _ = run(capsys, "export", path, "--model", DEEPSTACK, "--format", "buffer-plan",
                       "--serving-dtype", "float32")  # fmt: skip
    assert json.loads(out)["modalities"]["video"]["bytes_per_token"] == width * 4


def test_buffer_plan_errors(capsys, tmp_path):
    path = tmp_path / "widths.json"
    WidthTable(
        [toy_row("toy-a", "image", 64), toy_row("toy-p", "image", 48, source="predicted", dummy="none")]
    ).to_json(path)
    assert "needs --model" in error_line(capsys, "export", path, "--format", "buffer-plan")
    predicted = error_line(capsys, "export", path, "--model", "toy-p", "--format", "buffer-plan")
    assert "predicted, not measured" in predicted
    assert "reads the config of 'toy-a' for its token rules" in error_line(
        capsys, "export", path, "--model", "toy-a", "--format", "buffer-plan"
    )
    assert "--serving-dtype prices a buffer plan" in error_line(
        capsys, "export", path, "--format", "md", "--serving-dtype", "float32"
    )


def test_export_help_says_who_reads_each_format(capsys):
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    text = capsys.readouterr().out
    for fragment in ("producer-json", "vLLM reads no such file", "init=False", "buffer-plan", "ec_buffer_size",
                     "no vLLM connector reads the file", "csv, md"):  # fmt: skip
        assert fragment in text
