import atexit
import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest

# Nothing may reach a model hub; fail fast instead of retrying for minutes.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
# transformers copies a checkpoint's own code (--trust-remote-code tests) into its modules cache, read when it is
# first imported: a folder of the session's, not the user's ~/.cache.
_MODULES = tempfile.mkdtemp(prefix="ecwidth-hf-modules-")
os.environ.setdefault("HF_MODULES_CACHE", _MODULES)
atexit.register(shutil.rmtree, _MODULES, ignore_errors=True)


@pytest.fixture(autouse=True)
def interrupts_raise():
    """Each test starts with Ctrl-C raising KeyboardInterrupt, as a fresh interpreter has it: a test whose code
    ignores SIGINT (a forked worker's setting, run in this process) must not change what later tests see."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    yield


@pytest.fixture
def tokenless_family(monkeypatch: pytest.MonkeyPatch) -> str:
    """The toy family without a token rule (tests/toy.py), registered for one test; its model_type."""
    from ecwidth.families import adapter
    from tests.toy import TOKENLESS_MODEL_TYPE, ToyTokenlessAdapter

    adapter.supported_model_types()  # discover the shipped families before adding one
    monkeypatch.setitem(adapter._REGISTRY, TOKENLESS_MODEL_TYPE, ToyTokenlessAdapter())
    return TOKENLESS_MODEL_TYPE


#: The tiers the suite splits into, by folder or file; ``pytest -m unit`` is the quick loop.
_TIERS = {
    "notebooks/test_browser.py": "browser",
    "notebooks/": "notebooks",
    "families/": "family",
    # Every catalog model built, and every family's packed item against its real encode.
    "measuring/test_build.py": "family",
    "measuring/test_shapes.py": "family",
    "test_docs.py": "docs",
    # Files whose tests start other processes (torchrun ranks, signalled surveys, forked workers): seconds each.
    "serving/test_distributed.py": "processes",
    "serving/test_producer.py": "processes",
    "engines/test_runtime_options.py": "processes",
    "test_faults.py": "processes",
    "measuring/test_workers.py": "processes",
    "test_imports.py": "processes",
}
_ROOT = Path(__file__).parent


def _tier(path: Path) -> str:
    relative = path.relative_to(_ROOT).as_posix()
    return next((tier for prefix, tier in _TIERS.items() if relative.startswith(prefix)), "unit")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave a test file of a tier ``-m`` deselects uncollected, so the quick loop does not pay for importing
    and parametrizing the rest (the family modules resolve every tiny config as they are collected)."""
    expression = config.getoption("markexpr")
    if not expression or collection_path.suffix != ".py" or not collection_path.name.startswith("test_"):
        return None
    try:
        from _pytest.mark.expression import Expression  # pytest's own -m parser
    except ImportError:  # another pytest: collect everything, the markers still select
        return None
    tier = _tier(collection_path)
    return True if not Expression.compile(expression).evaluate(lambda name, **_: name == tier) else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test with its tier: ``browser``, ``notebooks``, ``family`` (the family contract, the family
    tests and the catalog-wide builds), ``docs`` (the generated pages and every command the docs show),
    ``processes`` (tests that start other processes), else ``unit``."""
    for item in items:
        item.add_marker(_tier(Path(item.fspath)))


def pytest_make_parametrize_id(config: pytest.Config, val: object, argname: str) -> str | None:
    """An engine release parametrizes a test under its key (``vllm==0.33.0``), as the ids read when the
    release constants were key strings, not ``release0``."""
    from ecwidth.engines.releases import Release

    return val.key if isinstance(val, Release) else None
