"""How each release serves a model type, as one table: the facts read from each engine's code, checked against
``serving_for`` (the registry entry, with the release's transformers pin applied).

A row names the model type, the releases it holds for, and what those releases do with it: the path (``native``,
the ``backend``, a path the release's transformers pin cannot load, or ``none``), the runtime options its class
takes, the modalities it cannot ship, and those a pruned video leaves unshipped. Every field not given is empty,
so a row also says what a release does *not* take.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from ecwidth.engines import registry
from ecwidth.engines.releases import SGLANG_0_5_23, VLLM_0_32, VLLM_0_33, Release
from ecwidth.families.adapter import adapter_for

VLLM = (VLLM_0_32, VLLM_0_33)
EVERY = (*VLLM, SGLANG_0_5_23)
PRUNING = frozenset({"video_pruning_rate"})


@dataclass(frozen=True)
class Expected:
    """What a release does with a model type."""

    #: ``native``, ``backend``, ``none``, or ``pinned:<path>``: the registry routes it by ``<path>``, but the
    #: release's declared transformers pin predates the classes that path loads.
    path: str
    options: frozenset[str] = frozenset()
    unserved: frozenset[str] = frozenset()
    #: modalities a video-pruning rate leaves unshipped.
    pruned_unserved: frozenset[str] = frozenset()
    #: words the why-not holds, for a row not served.
    why: tuple[str, ...] = ()
    #: the oldest transformers the path loads, where the row checks it.
    transformers: str = ""
    #: the engine classes the architecture resolves to, where the row checks them.
    classes: tuple[str, ...] = ()
    #: an engine source file the width depends on, where the row checks one.
    file: str = ""


NATIVE, BACKEND, NONE = Expected("native"), Expected("backend"), Expected("none")
PINNED_BACKEND = Expected("pinned:backend", why=("declares transformers", "Transformers backend"))
NATIVE_PRUNING = Expected("native", options=PRUNING)
#: a bare Omni thinker config: vLLM's registry sends it to the Transformers backend, whose pin predates it.
BARE_THINKER_VLLM = Expected("none", why=("Transformers backend", "5.21.0"))

#: (model types, releases, expected); the comment on a block names the engine code it is read from.
TABLE: list[tuple[tuple[str, ...], tuple[Release, ...], Expected]] = [
    # vLLM's own classes, no runtime option (model_executor/models/<type>.py)
    (("cosmos3_edge", "muse_glimmer", "qianfan_ocr", "inkling_mm_model"), VLLM, NATIVE),
    (("qwen2_vl",), VLLM, NATIVE),
    (("qwen3_asr",), VLLM, Expected("native", file="vllm/transformers_utils/configs/qwen3_asr.py")),
    (("qwen2_5_omni",), VLLM, NATIVE),
    (("qwen2_audio",), (VLLM_0_33, SGLANG_0_5_23), NATIVE),
    (("qwen3_omni_moe",), EVERY, NATIVE),
    # classes that take --video-pruning-rate (``supports_video_pruning`` / ``video_pruning_rate`` in the model file)
    (("qwen2_5_vl", "cohere_compass", "qwen4_exp"), VLLM, NATIVE_PRUNING),
    # Nemotron Nano VL V2 and the Omni V3 configs: one class, NemotronH_Nano_VL_V2 (nano_nemotron_vl.py)
    (
        ("NemotronH_Nano_VL_V2", "NemotronH_Nano_Omni_Reasoning_V3", "NemotronH_Super_Omni_Reasoning_V3"),
        VLLM,
        Expected("native", PRUNING, classes=("NemotronH_Nano_VL_V2",)),
    ),
    (("glm4v", "glm4v_moe", "glm_ocr", "glm5_next"), VLLM, NATIVE_PRUNING),
    (("qwen3_vl", "qwen3_vl_moe"), VLLM, NATIVE_PRUNING),
    # Qwen3.5's and EXAONE 4.5's pruned video keeps positions the shipped rows cannot carry
    (("qwen3_5", "qwen3_5_moe", "exaone4_5"), VLLM, Expected("native", PRUNING, pruned_unserved=frozenset({"video"}))),
    (("alpamayo2_super",), (VLLM_0_33,), NATIVE_PRUNING),
    (("alpamayo2_super",), (VLLM_0_32, SGLANG_0_5_23), NONE),
    # SGLang 0.5.23's encoder disaggregation (srt/models/<type>.py): no runtime option
    (("qwen2_vl", "qwen2_5_vl", "qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe"), (SGLANG_0_5_23,), NATIVE),
    (("glm5_next", "minimax_m3_vl"), (SGLANG_0_5_23,), NATIVE),
    (("dots3_note",), (SGLANG_0_5_23,), Expected("native", unserved=frozenset({"video"}))),
    (("dots3_note",), (VLLM_0_33,), NATIVE),
    (("glm4v", "glm4v_moe", "glm_ocr", "cohere_compass", "qwen2_5_omni"), (SGLANG_0_5_23,), NONE),
    (("qwen3_omni_moe_thinker",), (SGLANG_0_5_23,), Expected("none", why=("whitelist",))),
    # the Transformers backend (model_executor/models/transformers/), which takes no runtime option
    (("fun_asr_nano", "glm46v", "kosmos-2"), VLLM, BACKEND),
    # ... where the release's transformers pin predates the model type
    (("apertus1p5", "granite_docling", "lfm3_vl", "mistral_large4", "nemo_speechlm", "omniasr"), VLLM, PINNED_BACKEND),
    (("inkling2",), VLLM, Expected("pinned:backend", why=PINNED_BACKEND.why, transformers="5.23.0")),
    (("inkling2_loop",), VLLM, Expected("pinned:backend", why=PINNED_BACKEND.why, transformers="5.24.0")),
    (("minicpm_ocr", "muse_spark"), (VLLM_0_32,), PINNED_BACKEND),
    (("minicpm_ocr",), (VLLM_0_33,), Expected("pinned:native", why=("declares transformers",))),
    (("muse_spark",), (VLLM_0_33, SGLANG_0_5_23), NATIVE),
    (("qwen2_5_omni_thinker", "qwen3_omni_moe_thinker"), VLLM, BARE_THINKER_VLLM),
    # no class at all, or one that ships nothing of the tower (Chameleon's flat config: the backend falls back to
    # the text-only class)
    (("chameleon", "fuyu", "musicflamingo", "kosmos-2.5", "instructblip", "instructblipvideo"), VLLM, NONE),
    (("ernie4_5_vl_moe",), EVERY, NONE),
]

CASES = [
    pytest.param(model_type, release, expected, id=f"{model_type}-{release}")
    for model_types, releases_, expected in TABLE
    for model_type in model_types
    for release in releases_
]


def test_no_row_is_stated_twice():
    keys = [(model_type, str(release)) for model_type, release, _ in (case.values for case in CASES)]
    assert len(keys) == len(set(keys)), sorted(key for key in keys if keys.count(key) > 1)


@pytest.mark.parametrize(("model_type", "release", "expected"), CASES)
def test_the_release_serves_the_model_type_as_its_code_reads(model_type: str, release: Release, expected: Expected):
    record = adapter_for(model_type).serving_for(release, model_type)
    pinned = expected.path.startswith("pinned:")
    assert record.path == ("none" if pinned else expected.path), record.why_not
    assert all(words in record.why_not for words in expected.why), record.why_not
    if pinned:
        entry = registry.for_model_type(release, model_type)
        assert entry.path == expected.path.removeprefix("pinned:")
        assert not release.admits_transformers(entry.transformers)
    if expected.transformers:
        assert registry.for_model_type(release, model_type).transformers == expected.transformers
    if not record.serves:
        return
    assert record.options == expected.options
    assert set(record.unserved) == expected.unserved
    assert {option: set(whys) for option, whys in record.unserved_with.items()} == (
        {"video_pruning_rate": set(expected.pruned_unserved)} if expected.pruned_unserved else {}
    )
    assert not record.keys  # the rows here ship every modality under ecwidth's own name
    if expected.classes:
        assert record.classes == expected.classes
    if expected.file:
        assert expected.file in record.files
