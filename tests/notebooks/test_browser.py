"""Every notebook, run in JupyterLab in a real headless browser with the project's kernel, without an error output.

papermill runs a notebook's code; this runs what a user gets: JupyterLab's
own "Run All" on the stored notebook, with its parameters set small (papermill
injects them, nothing is executed by it), then the saved notebook is read back.
The browser is Debian's ``chromium`` (``make test`` installs it), driven by
playwright from PyPI (``playwright install`` cannot fetch a browser here).

Without chromium this test fails: CI must not pass by skipping it. Set
``ECWIDTH_SKIP_BROWSER=1`` to skip it on a machine where chromium cannot be installed.
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

if os.environ.get("ECWIDTH_SKIP_BROWSER"):
    pytest.skip("ECWIDTH_SKIP_BROWSER is set", allow_module_level=True)

papermill = pytest.importorskip("papermill")
sync_api = pytest.importorskip("playwright.sync_api")

from ecwidth.study import notebook  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MODELS = ["qwen3-vl-2b-instruct", "gemma-3-4b-it"]  # one DeepStack tower, one without; both quick on a CPU
TOKEN = "ecwidth-browser-test"
RUN_ALL_S = 240  # one notebook, kernel start included


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail(
            "no chromium on PATH: run `make test` (it installs Debian's chromium), or set ECWIDTH_SKIP_BROWSER=1"
        )
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _parameterized(folder: Path) -> list[Path]:
    """The four notebooks with small CPU parameters injected, in ``folder``; 02-04 reuse 01's table."""
    table = folder / "01" / "encoder_widths.json"
    common = {"device": "cpu", "dtype": "float32", "models": MODELS}
    parameters = {
        "01_width_survey": {"table_dir": None},
        "02_deepstack_packing": {"width_table": str(table), "deepstack_levels": [0, 1], "growth_modalities": ["image"]},
        "03_sizing_rules": {"width_table": str(table)},
        "04_producer_tables": {"width_table": str(table)},
    }
    paths = []
    for name, extra in parameters.items():
        book = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
        for cell in book.cells:
            cell.metadata.setdefault("tags", [])  # papermill reads every cell's tags and its own metadata
        book.metadata.papermill = {}
        given = {**common, "output_dir": str(folder / name[:2]), **extra}
        book = papermill.parameterize.parameterize_notebook(book, given)
        book.metadata.pop("papermill", None)
        paths.append(folder / f"{name}.ipynb")
        nbformat.write(book, paths[-1])
    return paths


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on the notebooks' copies, this interpreter's kernel, the app exposed to scripts."""
    chromium = _chromium()
    folder = tmp_path_factory.mktemp("lab")
    books = _parameterized(folder)
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", f"--port={port}",
         f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={folder}", "--LabApp.expose_app_in_browser=True"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
        env={**os.environ, "JUPYTER_CONFIG_DIR": str(folder / ".jupyter"), "TQDM_DISABLE": "1"},
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail("JupyterLab did not start within 60 s")
                time.sleep(0.5)
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            yield browser, f"http://127.0.0.1:{port}", books
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)


def _run_all(page, url: str, book: Path) -> nbformat.NotebookNode:
    """Open ``book`` in JupyterLab, Run All, wait for the kernel to finish, save, and read the file back."""
    page.goto(f"{url}/lab/tree/{book.name}?reset&token={TOKEN}")  # reset: only this notebook open
    page.wait_for_function(  # the file loaded and its kernel started, or Run All runs nothing
        """() => {
            const notebook = window.jupyterapp?.shell.currentWidget;
            return notebook?.context?.isReady && notebook.sessionContext?.session?.kernel?.status === 'idle';
        }""",
        timeout=120_000,
        polling=500,
    )
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(  # the notebook's model, not the DOM: JupyterLab renders only the cells in view
        """() => {
            const notebook = window.jupyterapp.shell.currentWidget;
            const cells = [...notebook.content.model.cells].filter(cell => cell.type === 'code');
            const failed = cells.some(cell => cell.outputs.toJSON().some(o => o.output_type === 'error'));
            const started = cells.length > 0 && cells[0].executionCount !== null;
            const done = cells.every(cell => cell.executionCount !== null);
            return started && notebook.sessionContext.session.kernel.status === 'idle' && (failed || done);
        }""",
        timeout=RUN_ALL_S * 1000,
        polling=1000,
    )
    page.evaluate("window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("!window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=30_000)
    return nbformat.read(book, as_version=4)


def _errors(book: nbformat.NotebookNode) -> list[str]:
    return [
        f"cell {index}: {output.ename}: {output.evalue}"
        for index, cell in enumerate(book.cells)
        for output in cell.get("outputs", [])
        if output.output_type == "error"
    ]


def test_every_notebook_runs_in_jupyterlab_without_an_error(lab):
    browser, url, books = lab
    shown = {}
    for path in books:  # in order: 02-04 read the table 01 wrote
        page = browser.new_page()
        book = _run_all(page, url, path)
        page.close()
        assert not _errors(book), f"{path.name}: {_errors(book)}"
        code = [cell for cell in book.cells if cell.cell_type == "code"]
        assert all(cell.execution_count for cell in code), f"{path.name}: not every cell ran"
        shown[path.name[:2]] = book
    setup = "".join(o.get("text", "") for o in shown["01"].cells[3].outputs if o.output_type == "stream")
    assert f"kernel {notebook.shown(sys.executable)}\n" in setup  # this interpreter: the project's kernel
    html = [o.data["text/html"] for cell in shown["04"].cells if "\ntable" in cell.source
            for o in cell.outputs if "text/html" in o.get("data", {})]  # fmt: skip
    assert html and "<caption>WidthTable: " in html[0]  # a WidthTable renders as an HTML table
    for name in ("03", "04"):
        text = json.dumps([cell.outputs for cell in shown[name].cells if cell.cell_type == "code"])
        assert "not measured again" in text, f"notebook {name} measured again instead of reusing 01's table"
