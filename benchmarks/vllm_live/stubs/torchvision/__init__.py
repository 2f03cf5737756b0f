"""Stub torchvision: PyPI's torchvision does not load beside torch 2.13.0+cpu
("operator torchvision::nms does not exist"). Only imports are satisfied;
any attribute is a dummy placeholder. Not used by the vision-tower forward."""
import sys, types, enum
__version__ = "0.28.0+stub"

class _Dummy:
    def __init__(self, *a, **k): pass
    def __call__(self, *a, **k): raise RuntimeError("torchvision stub called")
    def __getattr__(self, n): return _Dummy()

class InterpolationMode(enum.Enum):
    NEAREST = "nearest"; NEAREST_EXACT = "nearest-exact"; BILINEAR = "bilinear"
    BICUBIC = "bicubic"; BOX = "box"; HAMMING = "hamming"; LANCZOS = "lanczos"

class _Mod(types.ModuleType):
    def __getattr__(self, n):
        if n.startswith("__"): raise AttributeError(n)
        if n == "InterpolationMode": return InterpolationMode
        return _Dummy

for name in ["transforms", "transforms.functional", "transforms.v2",
             "transforms.v2.functional", "io", "ops", "ops.misc", "datasets", "models", "utils"]:
    full = __name__ + "." + name
    m = _Mod(full); m.__path__ = []
    sys.modules[full] = m
    parent = sys.modules[full.rsplit(".", 1)[0]] if "." in name else sys.modules[__name__]
    setattr(parent, name.rsplit(".", 1)[-1], m)
transforms = sys.modules[__name__ + ".transforms"]
