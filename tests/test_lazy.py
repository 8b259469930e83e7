"""Names imported on first use (src/toypoker/lazy.py)."""

from __future__ import annotations

import sys
import types

import pytest

from toypoker.lazy import lazy_names


def test_a_listed_name_is_imported_once_and_kept() -> None:
    pkg = types.ModuleType("lazy_test_package")
    sys.modules[pkg.__name__] = pkg
    try:
        pkg.__getattr__ = lazy_names(pkg.__name__, {"dumps": "json"})  # type: ignore[attr-defined]
        import json

        assert pkg.dumps is json.dumps  # imported on first use
        assert "dumps" in vars(pkg)  # and kept: the next lookup is a plain attribute
        with pytest.raises(AttributeError, match="has no attribute 'loads'"):
            _ = pkg.loads  # not listed
    finally:
        del sys.modules[pkg.__name__]
