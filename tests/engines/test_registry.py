"""Each engine release's registry, read release-major: every entry points at a family that exists (or, not served,
says why) and says what it needs; every architecture the wheel registers has an entry; every shipped family has an
entry in every vLLM release; a later release states only what moved."""

import json
import tomllib
from pathlib import Path

import pytest

from ecwidth.engines import registry, releases
from ecwidth.engines.releases import REGISTRIES, Release
from ecwidth.families.adapter import adapter_for, find_adapter, supported_model_types

SHIPPED = [t for t in supported_model_types() if t != "ecwidth_toy"]
VLLM = [r for r in releases.RELEASES if r.engine == "vllm"]


@pytest.mark.parametrize("release", releases.RELEASES, ids=str)
def test_every_entry_maps_to_a_registered_family_and_says_what_it_needs(release):
    for architecture, entry in registry.entries(release).items():
        assert entry.architecture == architecture and entry.model_types, architecture
        if not entry.family:  # an architecture no family answers: only as not served, saying why
            assert not entry.serves and entry.why_not, f"{release.key} {architecture}: served, with no family"
            continue
        for model_type in entry.model_types:
            adapter = find_adapter(model_type)
            assert adapter is not None, f"{release.key} {architecture}: no family registers {model_type!r}"
            assert type(adapter).__module__ == f"ecwidth.families.{entry.family}", (architecture, model_type)
            modalities = set(adapter.items) | set(adapter.predicted_only)
            with_option = {m for whys in entry.unserved_with.values() for m in whys}
            assert set(entry.keys) | set(entry.unserved) | with_option <= modalities, architecture
        assert entry.path in ("native", "backend", "none"), architecture
        if not entry.serves:
            assert entry.why_not, f"{release.key} {architecture}: an entry that does not serve says why"
            continue
        assert entry.classes and entry.files and entry.ships, (
            f"{architecture}: name the class, its files, what it ships"
        )
        assert set(entry.unserved_with) <= entry.options, f"{architecture}: unserved with an option it does not take"


REGISTERED = json.loads((Path(registry.__file__).parent / "registered.json").read_text())


@pytest.mark.parametrize("release", releases.RELEASES, ids=str)
def test_every_multimodal_architecture_the_wheel_registers_has_an_entry(release):
    # registered.json is what tools/screen_release.py --record read from the release's wheel.
    registered = REGISTERED[release.key]
    assert len(registered) > 10, release.key  # the wheel's lists were read, not an empty file
    missing = sorted(set(registered) - set(registry.entries(release)))
    assert not missing, f"{release.key} registers {missing} and its registry answers nothing for them"


@pytest.mark.parametrize("release", VLLM, ids=str)
def test_every_shipped_family_has_an_entry_in_every_vllm_release(release):
    missing = [t for t in SHIPPED if registry.for_model_type(release, t) is None]
    assert not missing, f"{release.key} has no entry (served, or not with why) for {missing}"


@pytest.mark.parametrize("release", releases.RELEASES, ids=str)
def test_a_release_that_includes_another_states_only_what_moved(release):
    own = tomllib.loads((REGISTRIES / release.file).read_text())
    if "include" not in own:
        return
    parent = next(r for r in releases.RELEASES if r.file == own["include"])
    before, after = registry.entries(parent), registry.entries(release)
    restated = [a for a in own.get("architectures", {}) if a in before and before[a] == after[a]]
    assert not restated, f"{release.file} restates entries {parent.file} already holds: {restated}"
    assert set(own.get("removed", ())) <= set(before), "a removed architecture the included file lacks"


def test_an_entry_with_a_field_the_registry_does_not_know_is_refused(tmp_path, monkeypatch):
    (tmp_path / "vllm-9.9.9.toml").write_text(
        'engine = "vllm"\nversion = "9.9.9"\ntransformers = ">=5"\nunlisted = "no"\n\n'
        '[architectures.LlavaForConditionalGeneration]\nmodel_type = "llava"\nfamily = "llava"\npath = "native"\n'
        'shipz = "a typo"\n'
    )
    monkeypatch.setattr(registry, "REGISTRIES", tmp_path)
    with pytest.raises(ValueError, match="shipz"):
        registry.entries(Release("vllm", "9.9.9", ">=5"))


def test_an_include_chain_replaces_whole_entries_and_drops_the_removed(tmp_path, monkeypatch):
    head = 'engine = "vllm"\nversion = "{v}"\ntransformers = ">=5"\nunlisted = "no"\n'
    entry = '\n[architectures.{a}]\nmodel_type = "llava"\nfamily = "llava"\npath = "native"\nfiles = ["x.py"]\nships = "{s}"\n'
    (tmp_path / "vllm-1.0.0.toml").write_text(head.format(v="1.0.0") + entry.format(a="A", s="old")
                                              + entry.format(a="B", s="b"))  # fmt: skip
    (tmp_path / "vllm-2.0.0.toml").write_text('include = "vllm-1.0.0.toml"\nremoved = ["B"]\n' + head.format(v="2.0.0")
                                              + entry.format(a="A", s="new").replace('files = ["x.py"]\n', ""))  # fmt: skip
    monkeypatch.setattr(registry, "REGISTRIES", tmp_path)
    newer = registry.entries(Release("vllm", "2.0.0", ">=5"))
    assert list(newer) == ["A"] and newer["A"].ships == "new" and newer["A"].files == ()


def test_each_registry_file_is_named_for_the_release_its_header_declares():
    assert sorted(r.file for r in releases.RELEASES) == sorted(p.name for p in REGISTRIES.glob("*.toml"))


def test_serving_for_a_model_type_is_its_registry_entry():
    release = releases.DEFAULT
    for model_type in SHIPPED:
        entry = registry.for_model_type(release, model_type)
        served = adapter_for(model_type).serving_for(release, model_type)
        assert served.architecture == entry.architecture and model_type in served.model_types
