import os
import sys
from pathlib import Path

import pytest

# Nothing may reach a model hub; fail fast instead of retrying for minutes.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).parent))  # the toy family in tests/toy.py


@pytest.fixture
def tokenless_family(monkeypatch: pytest.MonkeyPatch) -> str:
    """The toy family without a token rule (tests/toy.py), registered for one test; its model_type."""
    from toy import TOKENLESS_MODEL_TYPE, ToyTokenlessAdapter

    from ecwidth.families import adapter

    adapter.supported_model_types()  # discover the shipped families before adding one
    monkeypatch.setitem(adapter._REGISTRY, TOKENLESS_MODEL_TYPE, ToyTokenlessAdapter())
    return TOKENLESS_MODEL_TYPE


#: The tiers the suite splits into, by folder or file; ``pytest -m unit`` is the quick loop.
_TIERS = {
    "notebooks/test_browser.py": "browser",
    "notebooks/": "notebooks",
    "families/": "family",
    "test_docs.py": "docs",
    # Files whose tests start other processes (torchrun ranks, signalled surveys, forked workers): seconds each.
    "serving/test_distributed.py": "processes",
    "test_faults.py": "processes",
    "measuring/test_workers.py": "processes",
    "test_imports.py": "processes",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test with its tier: ``browser``, ``notebooks``, ``family`` (the family contract and the family
    tests), ``docs`` (the generated pages and every command the docs show), ``processes`` (tests that start
    other processes), else ``unit``."""
    root = Path(__file__).parent
    for item in items:
        relative = Path(item.fspath).relative_to(root).as_posix()
        tier = next((tier for prefix, tier in _TIERS.items() if relative.startswith(prefix)), "unit")
        item.add_marker(tier)
