"""torchaudio.functional's ``melscale_fbanks``, ``spectrogram`` and ``amplitude_to_DB``, in torch."""
import math

import torch


def melscale_fbanks(n_freqs, f_min, f_max, n_mels, sample_rate, norm=None, mel_scale="htk"):
    """Triangular filterbank (n_freqs, n_mels) on the HTK mel scale, as torchaudio's default."""
    to_mel = lambda f: 2595.0 * math.log10(1.0 + f / 700.0)  # noqa: E731
    all_freqs = torch.linspace(0, sample_rate // 2, n_freqs)
    m_pts = torch.linspace(to_mel(f_min), to_mel(f_max), n_mels + 2)
    f_pts = 700.0 * (10 ** (m_pts / 2595.0) - 1.0)
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts.unsqueeze(0) - all_freqs.unsqueeze(1)
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    return torch.max(torch.zeros(1), torch.min(down, up))


def spectrogram(waveform, pad, window, n_fft, hop_length, win_length, power, normalized, center=True,
                pad_mode="reflect", onesided=True):
    """|STFT|**power, (..., freq, time)."""
    shape = waveform.shape
    spec = torch.stft(waveform.reshape(-1, shape[-1]), n_fft=n_fft, hop_length=hop_length, win_length=win_length,
                      window=window, center=center, pad_mode=pad_mode, normalized=False, onesided=onesided,
                      return_complex=True)
    spec = spec.reshape(shape[:-1] + spec.shape[-2:])
    return spec.abs().pow(power)


def amplitude_to_DB(x, multiplier, amin, db_multiplier, top_db=None):
    """10 * log10(max(x, amin)), clamped to top_db below each item's peak."""
    x_db = multiplier * torch.log10(torch.clamp(x, min=amin)) - multiplier * db_multiplier
    if top_db is not None:
        peak = x_db.amax(dim=(-3, -2, -1), keepdim=True)
        x_db = torch.max(x_db, peak - top_db)
    return x_db
