"""The public face is ``__all__`` (issue 33, item 4): ``dir(toypoker)`` lists the public
API and nothing else, and every public name shows an example that runs (the doctests of
``tests/test_doctests.py`` run them)."""

from __future__ import annotations

import inspect

import toypoker as tp


def test_dir_is_the_public_api() -> None:
    assert dir(tp) == sorted(tp.__all__)
    assert not {"blocks", "io", "teams", "TYPE_CHECKING", "annotations"} & set(dir(tp))


def test_every_public_name_has_an_example() -> None:
    missing = []
    for name in tp.__all__:
        obj = getattr(tp, name)
        if inspect.isclass(obj) or callable(obj):
            doc = inspect.getdoc(obj) or ""
            if ">>>" not in doc or "Examples" not in doc and "Example" not in doc:
                missing.append(name)
        elif f"tp.{name}" not in (tp.__doc__ or ""):  # data: shown in the package's doc
            missing.append(name)
    assert missing == []


def test_no_public_name_is_also_a_submodule() -> None:
    # issue 46: ``import toypoker.evaluate as m`` gave the function, not the module; a
    # name of ``tp.__all__`` equal to a submodule's is shadowed one way or the other
    import pkgutil

    import toypoker as tp

    submodules = {m.name for m in pkgutil.iter_modules(tp.__path__)}
    assert "engines" in submodules and "evaluation" in submodules  # the walk works
    assert sorted(set(tp.__all__) & submodules) == []
