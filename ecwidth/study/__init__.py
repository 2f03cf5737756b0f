"""What only the notebooks use, by concern.

- ``rules``: the rules serving stacks size EC transfer buffers with, against measured widths.
- ``costs``: bytes per item and items per transfer buffer.
- ``deepstack``: DeepStack variants of published configs, measured.
- ``figures``: the plots.
- ``notebook``: notebook glue: parameter checks, measured tables, output folders, files.

The measuring kit (``ecwidth.measuring.measure``, ``ecwidth.records.table`` ...) never imports these.
"""

import warnings

# tqdm.auto asks for Jupyter widgets when transformers imports it; the notebooks print text progress instead.
warnings.filterwarnings("ignore", message="IProgress not found")
