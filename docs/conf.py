"""Sphinx configuration of the toypoker documentation.

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html``.
The API reference is generated from ``toypoker.__all__``, the CLI reference from the
typer app's click command, and the games' parameters from ``toypoker.GAMES`` (by
``_ext/toypoker_docs.py``), so none of them can drift from the code.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
# notebooks run in a kernel that inherits this environment: keep its BLAS to one thread
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# `!toypoker ...` cells run under a pseudo-terminal: print as to a file (no colours, no
# progress bars or spinners; rich reads TTY_COMPATIBLE) and no periodic progress lines
os.environ.setdefault("TTY_COMPATIBLE", "0")
os.environ.setdefault("TOYPOKER_PROGRESS_EVERY", "3600")


def _notebook_shell() -> None:
    """Make the notebooks' shell cells (``!toypoker ...``) run this interpreter's
    toypoker and fail the build when they fail.

    The kernel inherits this process's environment.  A folder put first on its
    ``PATH`` holds a ``toypoker`` that runs ``sys.executable -m toypoker``, so the
    build works from a virtual environment that is not activated (its ``bin`` is not
    on ``PATH``).  An IPython start-up file (``IPYTHONDIR``) makes a shell command
    that exits non-zero raise, and a cell that raises fails the build
    (``nb_execution_raise_on_error``); IPython alone only records the status.  Its
    configuration there keeps the kernel's log to errors.
    """
    import atexit
    import shutil
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="toypoker-docs-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    shim = root / "bin" / "toypoker"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m toypoker "$@"\n')
    shim.chmod(0o755)
    os.environ["PATH"] = f"{shim.parent}{os.pathsep}{os.environ.get('PATH', '')}"
    startup = root / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-shell-fails.py").write_text(SHELL_FAILS)
    # the kernel's own start-up warning (ZeroMQ over TCP on this machine's loopback,
    # unencrypted) is said once a notebook: errors only
    (startup.parent / "ipython_kernel_config.py").write_text('c.IPKernelApp.log_level = "ERROR"\n')
    os.environ["IPYTHONDIR"] = str(root / "ipython")


#: the kernel's start-up file: ``!cmd`` raises when ``cmd`` exits non-zero
SHELL_FAILS = """\
def _toypoker_docs_shell():
    ip = get_ipython()
    system = ip.system

    def checked(cmd, *args, **kwargs):
        out = system(cmd, *args, **kwargs)
        status = ip.user_ns.get("_exit_code", 0)
        if status:
            raise RuntimeError(f"shell command exited with status {status}: {cmd}")
        return out

    ip.system = checked


_toypoker_docs_shell()
del _toypoker_docs_shell
"""

_notebook_shell()


def _numpydoc_warnings_to_sphinx() -> None:
    """numpydoc reports what it cannot parse in a docstring (an unknown section) with
    Python's ``warnings``, which ``-W`` does not see, and only once a source line:
    each becomes a Sphinx warning, so ``-W`` fails the build on it."""
    import warnings

    from sphinx.util import logging

    log = logging.getLogger("numpydoc")
    warnings.filterwarnings("always", category=UserWarning, module=r"numpydoc\.")
    shown = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):  # noqa: ANN001
        if "numpydoc" in str(filename):
            log.warning("numpydoc: %s", message)
        else:
            shown(message, category, filename, lineno, file, line)

    warnings.showwarning = show


_numpydoc_warnings_to_sphinx()

import toypoker  # noqa: E402

project = "toypoker"
author = "toypoker developers"
copyright = "2026, toypoker developers"
release = toypoker.__version__ if hasattr(toypoker, "__version__") else "0.1.0"
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "mathml",
    "numpydoc",
    "myst_nb",
    "toypoker_docs",
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb"}
exclude_patterns = [
    "_build",
    "Thumbs.db",
    ".DS_Store",
    "**/.ipynb_checkpoints",
    "jupyter_execute",
    "reference/generated",
]
root_doc = "index"

# the API pages: one per public name, generated from toypoker.__all__
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False}
# the types of every parameter and return, from the annotations, in the signatures
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
numpydoc_show_class_members = False
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False

# MyST and the executed notebooks
myst_enable_extensions = ["colon_fence", "dollarmath", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "force"
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True

# formulas as MathML, made at build time (_ext/mathml.py): no script from a CDN
html_math_renderer = "mathml"

html_theme = "pydata_sphinx_theme"
html_title = "toypoker"
html_static_path = ["_static"]
html_css_files = ["toypoker.css"]
templates_path = ["_templates"]
# notebook cells that run a shell command (`!toypoker ...`) are highlighted as Python,
# which cannot lex the `!`: Sphinx then falls back to relaxed highlighting (harmless)
suppress_warnings = ["misc.highlighting_failure"]
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    # the version in the header (_templates/version.html)
    "navbar_start": ["navbar-logo", "version"],
}
# pages without sub-pages: no left sidebar (it would be empty)
html_sidebars = {
    page: []
    for page in (
        "getting-started", "installation", "methods", "findings", "faq", "citing",
        "bibliography", "development", "changelog",
    )
}  # fmt: skip
