"""torchaudio.compliance.kaldi, for imports only: Fun-ASR's feature extraction, which compare.py never runs."""


def fbank(*args, **kwargs):
    raise NotImplementedError("torchaudio stub: kaldi.fbank is not computed here")
