"""Imported by vLLM's Fun-ASR processor module; the items here hand the model features, so nothing calls it."""
from . import kaldi  # noqa: F401
