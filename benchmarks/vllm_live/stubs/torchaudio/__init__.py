"""Stub torchaudio: PyPI has no torchaudio for torch 2.13.0+cpu. MiDashengLM's front end (vLLM's
``midashenglm.py``, ``DashengFrontend``) calls three functions of ``torchaudio.functional``; ``functional``
computes them in torch as torchaudio does (HTK mel scale, no norm). They turn a waveform into log-mels,
before the encoder and projector that set the width."""
from . import compliance, functional  # noqa: F401

__version__ = "2.13.0+stub"
