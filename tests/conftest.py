import os
import sys
from pathlib import Path

# Nothing may reach a model hub; fail fast instead of retrying for minutes.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).parent))  # the toy family in tests/toy.py
