"""Naming a model: catalog names and hub ids, hub ids in a fabricated Hugging Face cache, folders and files.

Every test runs with ``HF_HUB_OFFLINE=1`` on a cache built under ``tmp_path``:
nothing reaches a hub.
"""

import json

import pytest

from ecwidth.cli.commands import main
from ecwidth.engines.releases import DEFAULT
from ecwidth.errors import ConfigError
from ecwidth.reading.catalog import catalog_entry
from ecwidth.reading.configs import resolve_spec
from ecwidth.reading.sources import locate, path_name
from tests.tiny_configs import tiny_qwen3_vl
from tests.width_tables import table_of

SHA = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture
def hub_cache(tmp_path, monkeypatch):
    """``put(repo_id, config)`` writes ``models--ORG--NAME/snapshots/<sha>/config.json`` and ``refs/main``."""
    cache = tmp_path / "hf-home" / "hub"
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(cache.parent))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")

    def put(repo_id: str, config: dict) -> str:
        repo = cache / f"models--{repo_id.replace('/', '--')}"
        (repo / "snapshots" / SHA).mkdir(parents=True)
        (repo / "snapshots" / SHA / "config.json").write_text(json.dumps(config))
        (repo / "refs").mkdir()
        (repo / "refs" / "main").write_text(SHA)
        return str(repo / "snapshots" / SHA)

    return put


def test_a_cached_hub_id_resolves_at_every_revision_spelling(hub_cache):
    config = tiny_qwen3_vl(levels=2)
    snapshot = hub_cache("Acme/Tuned-VL", config)
    for given in ("Acme/Tuned-VL", "Acme/Tuned-VL@main", f"Acme/Tuned-VL@{SHA}"):
        spec = resolve_spec(given)
        assert spec.name == given
        assert spec.raw == config
        assert spec.source == f"{snapshot}/config.json"
    assert resolve_spec("Acme/Tuned-VL", name="mine").name == "mine"


def test_hf_hub_cache_wins_over_hf_home(hub_cache, tmp_path, monkeypatch):
    hub_cache("Acme/Tuned-VL", tiny_qwen3_vl())
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "elsewhere"))
    with pytest.raises(ConfigError, match="elsewhere"):
        resolve_spec("Acme/Tuned-VL")


def test_an_uncached_hub_id_offline_says_what_to_do(hub_cache):
    with pytest.raises(ConfigError) as caught:
        resolve_spec("Acme/Not-Here@v2")
    message = str(caught.value)
    assert "HF_HUB_OFFLINE" in message and "folder" in message
    assert "huggingface-cli download Acme/Not-Here config.json --revision v2" in message


def test_a_catalog_hub_id_is_its_catalog_entry_named_as_given(hub_cache):
    entry = catalog_entry("qwen3-vl-8b-instruct")
    spec = resolve_spec(entry.hf_id)
    assert (spec.name, spec.source, spec.raw) == (entry.hf_id, "catalog:qwen3-vl-8b-instruct", entry.config)
    assert locate(entry.hf_id.lower()).entry == entry


def test_paths_are_named_after_the_folder_the_snapshot_or_the_file(hub_cache, tmp_path):
    snapshot = hub_cache("Acme/Tuned-VL", tiny_qwen3_vl())
    folder = tmp_path / "my-finetune"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(tiny_qwen3_vl()))
    (tmp_path / "variant-b.json").write_text(json.dumps(tiny_qwen3_vl()))
    assert path_name(folder) == path_name(folder / "config.json") == "my-finetune"
    assert path_name(snapshot) == path_name(f"{snapshot}/config.json") == "Acme/Tuned-VL"
    assert resolve_spec(tmp_path / "variant-b.json").name == "variant-b"
    assert resolve_spec(str(folder), name="ft").name == "ft"


def test_cli_measure_survey_and_export_take_a_hub_id_and_a_folder(hub_cache, tmp_path, capsys):
    config = tiny_qwen3_vl(levels=1)
    hub_cache("Acme/Tuned-VL", config)
    width = config["vision_config"]["out_hidden_size"] * 2
    assert main(["measure", "--model", "Acme/Tuned-VL", "--device", "cpu", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert (printed["model"], printed["widths"]) == ("Acme/Tuned-VL", {"image": width, "video": width})

    folder = tmp_path / "my-finetune"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(tiny_qwen3_vl(levels=0)))
    out = tmp_path / "out"
    argv = ["survey", "--models", "Acme/Tuned-VL", str(folder), "-o", str(out), "--device", "cpu"]
    assert main(argv) == 0
    capsys.readouterr()
    argv = ["export", str(out / "encoder_widths.json"), "--model", "Acme/Tuned-VL", "--format", "producer-json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out) == {
        "mm_encoder_output_widths": {"image": width, "video": width},
        "engine": {"name": DEFAULT.engine, "version": DEFAULT.version},
    }
    assert main(["lookup", str(out / "encoder_widths.json"), "my-finetune", "image"]) == 0
    assert capsys.readouterr().out.strip() == str(config["vision_config"]["out_hidden_size"])


def test_cli_predict_names_the_result(hub_cache, capsys):
    hub_cache("Acme/Tuned-VL", tiny_qwen3_vl())
    assert main(["predict", "--model", "Acme/Tuned-VL", "--name", "prod-vl", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["model"] == "prod-vl"


def test_cli_an_unknown_hub_id_is_one_error_line(hub_cache, capsys):
    assert main(["predict", "--model", "Acme/Not-Here"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("ecwidth: error: Acme/Not-Here:") and "huggingface-cli download" in line


def test_a_table_row_is_found_by_the_catalog_hub_id(tmp_path, capsys):
    entry = catalog_entry("qwen3-vl-2b-instruct")
    table_of({entry.name: {"image": 8192, "video": 8192}}).to_json(tmp_path / "t.json")
    assert main(["lookup", str(tmp_path / "t.json"), entry.hf_id, "video"]) == 0
    assert capsys.readouterr().out.strip() == "8192"
