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
