"""The engine releases ecwidth knows, how a user names one, and what each one's transformers pin admits."""

import json
import zipfile
from pathlib import Path

import pytest

from ecwidth.engines import registry, releases
from ecwidth.engines.releases import DEFAULT, RELEASES, Release, release
from ecwidth.errors import UnknownEngineError

FILES_JSON = Path(releases.__file__).with_name("files.json")


def test_a_bare_engine_name_means_its_newest_release_and_none_means_the_newest_vllm():
    newest_vllm = max((r for r in RELEASES if r.engine == "vllm"), key=lambda r: releases.version_tuple(r.version))
    assert release(None) == release("vllm") == release(" VLLM ") == newest_vllm == DEFAULT
    assert release("vllm==0.32.0").version == "0.32.0"
    assert release("sglang").key == "sglang==0.5.23"
    assert release(release("sglang")) is release("sglang")


@pytest.mark.parametrize("name", ["tgi", "vllm==0.31.0", "sglang==0.5", "", 33, Release("vllm", "9.9.9", "")])
def test_an_unknown_engine_or_version_is_one_error_naming_the_known_ones(name):
    with pytest.raises(UnknownEngineError) as caught:
        release(name)
    assert all(r.key in str(caught.value) for r in RELEASES)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("pin", "oldest", "admits"),
    [
        (">=5.16.1,<5.20.0", "5.19.0", True),
        (">=5.16.1,<5.20.0", "5.20.0", False),  # the exclusive bound itself is out
        (">=5.16.1,<5.21.0", "5.20.2", True),
        (">=5.16.1,<5.21.0", "5.21.0", False),
        ("==5.19.0", "5.19.0", True),
        ("==5.19.0", "5.17.0", True),  # the pinned release is newer than what the family needs
        ("==5.19.0", "5.20.0", False),
        ("<=5.22.2", "5.22.2", True),
        ("<=5.22.2", "5.23.0", False),
    ],
)
def test_a_release_admits_a_family_only_where_its_pin_reaches_the_familys_classes(pin, oldest, admits):
    assert Release("vllm", "0.0.0", pin).admits_transformers(oldest) is admits


def test_each_release_declares_the_pin_its_wheel_metadata_names():
    """The pins as ENGINES.md read them from each wheel; a typo here would misjudge every backend family."""
    pins = {r.key: r.transformers for r in RELEASES}
    assert pins == {
        "vllm==0.32.0": ">=5.16.1,<5.20.0",
        "vllm==0.33.0": ">=5.16.1,<5.21.0",
        "sglang==0.5.23": "==5.19.0",
    }


def test_every_engine_file_a_record_names_has_its_hash_for_that_release():
    """files.json is what the release screen (tools/screen_release.py) compares a new wheel with."""
    hashes = json.loads(FILES_JSON.read_text())
    for known in releases.RELEASES:
        for architecture, entry in registry.entries(known).items():
            for path in entry.files:
                digest = hashes.get(known.key, {}).get(path)
                assert digest is not None and len(digest) == 64, f"{known.key} {architecture}: no hash for {path}"


def test_the_hashes_are_of_no_file_a_record_does_not_name():
    hashes = json.loads(FILES_JSON.read_text())
    named = {
        (known.key, path)
        for known in releases.RELEASES
        for entry in registry.entries(known).values()
        for path in entry.files
    }
    stale = sorted((key, path) for key, files in hashes.items() for path in files if (key, path) not in named)
    assert not stale, f"files.json holds hashes no record names (rerun tools/screen_release.py --record): {stale[:5]}"


def test_the_screen_lists_changed_files_and_registry_changes(tmp_path, capsys):
    """The screen against fabricated wheels: one named file changed, one architecture added."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("screen", Path(__file__).parents[2] / "tools" / "screen_release.py")
    screen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(screen)
    hashes = json.loads(FILES_JSON.read_text())["vllm==0.33.0"]
    changed = sorted(hashes)[0]
    registry = "_MULTIMODAL_MODELS = {%s}\n"

    def wheel(name: str, architectures: list[str], edit: bool) -> Path:
        path = tmp_path / name
        with zipfile.ZipFile(path, "w") as archive:
            for file in hashes:
                archive.writestr(file, b"edited" if edit and file == changed else b"")
            archive.writestr(
                "vllm/model_executor/models/registry.py",
                registry % ", ".join(f'"{a}": ("m", "C")' for a in architectures),
            )
            archive.writestr("vllm-9.dist-info/METADATA", "Requires-Dist: transformers<5.30,>=5.20\n")
        return path

    old, new = wheel("old.whl", ["A"], edit=False), wheel("new.whl", ["A", "B"], edit=True)
    assert (
        screen.main(["vllm==0.34.0", "--against", "vllm==0.33.0", "--wheel", str(new), "--against-wheel", str(old)])
        == 0
    )
    out = capsys.readouterr().out
    assert changed in out and "+ B" in out and "<5.30,>=5.20" in out
