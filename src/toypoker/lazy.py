"""Names a package imports on first use (PEP 562), so importing it stays light.

``__getattr__ = lazy_names(__name__, {"solve": "toypoker.solvers.run", ...})`` in a
package's ``__init__`` imports each listed name from its module the first time it is
asked for and keeps it in the package's namespace; any other name is an
``AttributeError`` as usual.  Ground floor: imports nothing of toypoker's.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping

__all__ = ["lazy_names"]


def lazy_names(package: str, table: Mapping[str, str]) -> Callable[[str], object]:
    """The ``__getattr__`` of ``package``: ``table`` maps a name to the module it is
    imported from on first use."""

    def attribute(name: str) -> object:
        if name not in table:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(table[name]), name)
        setattr(sys.modules[package], name, value)
        return value

    return attribute
