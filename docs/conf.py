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

import toypoker  # noqa: E402

project = "toypoker"
author = "toypoker developers"
copyright = "2026, toypoker developers"
release = toypoker.__version__ if hasattr(toypoker, "__version__") else "0.1.0"
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
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
autodoc_typehints = "none"
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

html_theme = "pydata_sphinx_theme"
html_title = "toypoker"
html_static_path: list[str] = []
templates_path = ["_templates"]
# notebook cells that run a shell command (`!toypoker ...`) are highlighted as Python,
# which cannot lex the `!`: Sphinx then falls back to relaxed highlighting (harmless)
suppress_warnings = ["misc.highlighting_failure"]
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
}
html_sidebars = {"findings": [], "bibliography": []}
