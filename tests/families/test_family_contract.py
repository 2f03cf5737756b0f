"""The contract every registered model type keeps, run over the tiny config of each (``tests/tiny/``).

A family test file keeps only what is specific to its family; this module
checks what all of them share: it measures, the width equals the config's
prediction, no field the family names as a look-alike equals it, each vLLM
release has a record that names its class, files and what it ships (or why it
does not serve the type), a missing required field is named, minimal and
profile items agree, and a pipeline stage without the encoder reports nothing.
A type no release serves is measured through the build and its family's rule. A family
that can only predict (an ``engine_only`` one, with no transformers class, or
one whose items are LM token embeddings) keeps a shorter contract: it
predicts every modality it declares, and refuses to measure, saying why.
"""

from __future__ import annotations

import copy
import gc
import json
import re
from pathlib import Path

import pytest
import torch
import transformers

from ecwidth.engines import releases
from ecwidth.engines.releases import Release
from ecwidth.errors import ConfigError, NotServedError, UnknownModelTypeError, UnmeasurableError
from ecwidth.families.adapter import adapter_for, lookup, resolve, supported_model_types
from ecwidth.measuring.encode import dummy_shapes
from ecwidth.measuring.measure import measure, measure_widths
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.catalog import catalog_entry, catalog_names
from ecwidth.reading.configs import resolve_spec
from ecwidth.records.table import WidthTable
from tests.building import build_on_cpu
from tests.tiny_configs import measurable_model_types, tiny_config, tiny_model_types

#: The committed survey (``make tables``), which every catalog model must still measure.
COMMITTED = Path(__file__).resolve().parents[2] / "tables" / "encoder_widths.json"
INSTALLED = releases.version_tuple(transformers.__version__.split(".dev")[0])


def too_new(model_type: str) -> bool:
    """Whether the installed transformers predates the classes ecwidth builds the family from (an engine's pin)."""
    since = adapter_for(model_type).transformers_since
    return bool(since) and INSTALLED < releases.version_tuple(since)


#: The contract runs under the project's transformers and under each engine's pin (``make test`` does both):
#: a family newer than the installed transformers is checked for its one-line refusal instead.
TOO_NEW = [t for t in tiny_model_types() if too_new(t)]
MODEL_TYPES = measurable_model_types(leaving_out=TOO_NEW)
PREDICTED_ONLY = [t for t in tiny_model_types() if t not in MODEL_TYPES and t not in TOO_NEW]
#: Tokens a profile item is capped at: enough to leave the minimal item's shape, small enough for a CPU.
PROFILE_CAP = 64


@pytest.fixture(autouse=True)
def _collect_after_each_model():
    yield
    gc.collect()


def test_every_registered_model_type_has_a_tiny_config():
    untested = [t for t in supported_model_types() if t not in tiny_model_types() and t != "ecwidth_toy"]
    assert not untested, f"add tests/tiny/<model_type>.json for {untested}"


def serving_release(model_type: str) -> Release | None:
    """The newest release that serves ``model_type``'s tiny config (by its architecture, as the engine picks),
    the default first; None where none does."""
    adapter = adapter_for(model_type)
    architecture = (tiny_config(model_type).get("architectures") or [None])[0]
    ordered = [releases.DEFAULT, *reversed(releases.RELEASES)]
    return next((release for release in ordered if adapter.serving_for(release, model_type, architecture).serves), None)


def measured_and_predicted(model_type: str) -> tuple[dict[str, int], dict[str, int]]:
    """The tiny config's widths, measured and predicted, in ecwidth's modality names: through ``measure`` for a
    release that serves the type, else (no release serves it) through the build and the family's own rule."""
    release = serving_release(model_type)
    adapter = adapter_for(model_type)
    if release is not None:
        result = measure(tiny_config(model_type), device="cpu", dtype="float32", engine=release)
        names = {
            adapter.engine_key(m, release): m
            for m in adapter.config_modalities(resolve_spec(tiny_config(model_type)).config)
        }
        return (
            {names[key]: width for key, width in result.widths.items()},
            {names[key]: width for key, width in result.predicted.items()},
        )
    with torch.inference_mode():
        measured = measure_widths(build_on_cpu(tiny_config(model_type)))
    return measured, adapter.predict(resolve_spec(tiny_config(model_type)).config)


@pytest.mark.parametrize("model_type", MODEL_TYPES)
def test_measures_a_positive_width_per_modality_equal_to_the_prediction(model_type):
    widths, predicted = measured_and_predicted(model_type)
    adapter = adapter_for(model_type)
    config = resolve_spec(tiny_config(model_type)).config
    assert tuple(widths) == adapter.config_modalities(config)
    assert set(widths) <= set(adapter.items) | set(adapter.takes), "declare the modalities a listing reads"
    assert widths, "a multimodal family measured no modality"
    assert all(isinstance(w, int) and w > 0 for w in widths.values())
    assert {m: predicted[m] for m in widths} == widths
    for field in adapter.look_alikes:  # each field that looks like the width must be there and differ from it
        value = resolve(config, field)
        assert value is not None, f"the tiny config lacks the look-alike {field!r}, so its check could not fail"
        assert all(value != width for width in widths.values()), f"{field} = {value} equals a measured width"


#: Every shipped family; the toy family some tests register (``tests/toy.py``) keeps no engine records.
SHIPPED = [t for t in supported_model_types() if t != "ecwidth_toy"]


@pytest.mark.parametrize("model_type", SHIPPED)
def test_every_width_rule_is_for_a_modality_the_family_has(model_type):
    adapter = adapter_for(model_type)
    modalities = set(adapter.items) | set(adapter.predicted_only)
    for modality in adapter.width_fields:
        assert modality == "*" or modality in modalities, f"a width rule for {modality!r}, which the family lacks"


@pytest.mark.parametrize("model_type", PREDICTED_ONLY)
def test_a_predicted_only_family_predicts_its_modalities_and_refuses_to_measure(model_type):
    adapter = adapter_for(model_type)
    release = serving_release(model_type)
    if release is None:
        predicted = adapter.predict(resolve_spec(tiny_config(model_type)).config)
    else:
        predicted = predict_widths(tiny_config(model_type), engine=release)
        predicted = {adapter.modality_for_key(key, release): width for key, width in predicted.items()}
    assert set(predicted) == set(adapter.predicted_only)
    assert predicted and all(isinstance(w, int) and w > 0 for w in predicted.values())
    with pytest.raises((UnmeasurableError, NotServedError), match="is predicted only|does not serve"):
        measure(tiny_config(model_type), device="cpu", engine=release)


@pytest.mark.parametrize("name", catalog_names())
def test_a_catalog_model_measures_its_committed_width_under_the_installed_transformers(name):
    """The committed table holds under whatever transformers runs this (an engine's pin, or the project's):
    a catalog model measures its committed widths, is one the default release does not serve, or belongs to a
    family the installed transformers predates (whose one-line refusal the test below checks)."""
    model_type = catalog_entry(name).config["model_type"]
    if too_new(model_type):
        pytest.skip(f"{model_type} needs transformers {adapter_for(model_type).transformers_since}")
    committed = WidthTable.read(COMMITTED)
    if name not in committed.models():
        with pytest.raises(NotServedError):
            measure(name, device="cpu")
        return
    if {row.source for row in committed.for_model(name).rows} == {"predicted"}:  # the engine's rule, not measured
        with pytest.raises(UnmeasurableError):
            measure(name, device="cpu")
        assert predict_widths(name) == {r.modality: r.encoder_width for r in committed.for_model(name).rows}
        return
    assert measure(name, device="cpu", dtype="float32").widths == committed.widths(name)


@pytest.mark.parametrize("model_type", TOO_NEW)
def test_a_family_newer_than_the_installed_transformers_refuses_in_one_line(model_type):
    """Reading the config or building the tower names the transformers the family needs; a release that
    serves the type says it through ``measure`` too."""
    since = adapter_for(model_type).transformers_since
    needs = f"needs transformers {re.escape(since)} or newer"
    with pytest.raises(UnknownModelTypeError, match=needs):
        build_on_cpu(tiny_config(model_type))
    if serving_release(model_type) is not None:
        with pytest.raises(UnknownModelTypeError, match=needs):
            measure(tiny_config(model_type), device="cpu", engine=serving_release(model_type))


@pytest.mark.parametrize("model_type", [t for t in tiny_model_types() if t not in TOO_NEW])
def test_a_required_field_left_out_is_named_unless_the_config_class_supplies_it(model_type):
    """A diff-style hub file leaves out what its class defaults; the engine reads the loaded config, so a class
    default stands in. A field neither the file nor the class gives is one error naming it."""
    adapter = adapter_for(model_type)
    raw = tiny_config(model_type)
    fields = adapter.required_paths(raw)
    assert fields, f"{model_type} declares no required field"
    for field in fields:
        assert lookup(raw, field) is not None, f"the tiny config lacks its own required {field!r}"
        broken = copy.deepcopy(raw)
        *parents, leaf = field.split(".")
        owner = broken
        for part in parents:
            owner = owner[part]
        del owner[leaf]
        if field in adapter.missing_fields(adapter.translate(copy.deepcopy(broken))):
            with pytest.raises(ConfigError, match=field.replace(".", r"\.")):
                resolve_spec(broken)
        else:
            assert resolve(resolve_spec(broken).config, field) is not None, f"{field}: no class default stood in"


@pytest.mark.parametrize("model_type", MODEL_TYPES)
def test_minimal_and_profile_items_give_the_same_width(model_type):
    model = build_on_cpu(tiny_config(model_type))
    minimal = dummy_shapes(model, dummy="minimal")
    profile = dummy_shapes(model, dummy="profile", max_tokens=PROFILE_CAP)
    assert {m: w for m, (_, w) in profile.items()} == {m: w for m, (_, w) in minimal.items()}
    for modality, (tokens, _) in profile.items():
        assert tokens >= minimal[modality][0], modality


@pytest.mark.parametrize("model_type", MODEL_TYPES)
def test_a_pipeline_stage_without_the_encoder_reports_nothing(model_type):
    model = build_on_cpu(tiny_config(model_type))
    adapter = adapter_for(model_type)
    path = adapter.encoder_paths(model)[0]
    parent, _, name = path.rpartition(".")
    setattr(resolve(model, parent) if parent else model, name, None)
    assert not adapter.has_encoder(model)
    with torch.inference_mode():
        assert measure_widths(model) == {}


@pytest.mark.parametrize("model_type", [t for t in tiny_model_types() if adapter_for(t).engine_only])
def test_ecwidth_predict_answers_or_refuses_in_one_line_under_every_release(model_type, capsys):
    # The command, not only the function: it also reads the LM hidden size and, under SGLang, the engine's sizes,
    # from a config read as data (an engine-only family's), where transformers' accessors are absent.
    from ecwidth.cli.commands import main

    path = str(Path(__file__).parents[1] / "tiny" / f"{model_type}.json")
    for release in releases.RELEASES:
        status = main(["predict", "--config", path, "--engine", release.key, "--json", "--no-progress"])
        out, err = capsys.readouterr()
        assert status in (0, 2), (release.key, err)
        if status == 2:  # not served there, say: one line
            assert err.startswith("ecwidth: error:") and err.count("\n") == 1, (release.key, err)
        else:
            predicted = json.loads(out)
            assert predicted["predicted"] == predict_widths(tiny_config(model_type), engine=release), release.key
            assert predicted["lm_hidden_size"] > 0, release.key
