"""Docstrings and comments describe the code as it is.

Three rules, read from the source with ``ast`` and ``tokenize`` over every module of
``src/toypoker``:

* **no tracker references**: no docstring or comment names an issue (``issue 21``) or
  carries a ``TODO(integration)`` marker; the history of a change belongs in the
  changelog and the tracker, not beside the code;
* **role targets resolve**: every Sphinx cross-reference in a docstring (``:mod:``,
  ``:func:``, ``:class:``, ``:meth:``, ``:attr:``, ``:data:``) names an object that
  imports: an absolute ``toypoker.`` target, a relative one (``.values``, looked up in
  the module, then its package and the packages above), or a bare name defined in the
  module or its class;
* **no measurements**: no docstring or comment states a measured time or memory
  (``0.45 s a check``, ``25x faster``); measured numbers live in
  ``benchmarks/results/``, and a sentence that points there may quote one.

Each rule has a self-test on a known-bad string.  :data:`ALLOWED` lists the offences
in files another change is editing; a new offence anywhere fails.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import io
import re
import textwrap
import tokenize
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

import toypoker

PACKAGE = Path(toypoker.__file__).parent

# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class Text:
    """A docstring or comment of one module: where it is and what it says."""

    module: str  #: dotted module name
    line: int  #: first line of the text in the file
    text: str
    docstring: bool  #: a docstring (or attribute docstring), not a ``#`` comment
    owner: str | None  #: dotted path of the enclosing class inside the module, if any


def modules() -> Iterator[tuple[str, Path]]:
    """Every module of the package, by dotted name, with its file."""
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


def _strings(tree: ast.AST, owner: str | None = None) -> Iterator[tuple[int, str, str | None]]:
    """Every string statement (docstrings, attribute docstrings) with its class."""
    for node in ast.iter_child_nodes(tree):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            yield node.lineno, node.value.value, owner
        elif isinstance(node, ast.ClassDef):
            yield from _strings(node, node.name if owner is None else f"{owner}.{node.name}")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _strings(node, owner)
        elif not isinstance(node, ast.expr):
            yield from _strings(node, owner)


def _comment(module: str, block: list[tokenize.TokenInfo]) -> Text:
    text = "\n".join(t.string.lstrip("#:").strip() for t in block)
    return Text(module, block[0].start[0], text, False, None)


@cache
def texts(module: str, path: Path) -> tuple[Text, ...]:
    """The docstrings and comments of one module."""
    source = path.read_text(encoding="utf-8")
    found = [Text(module, line, s, True, owner) for line, s, owner in _strings(ast.parse(source))]
    block: list[tokenize.TokenInfo] = []  # a comment over consecutive lines is one text
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        if block and token.start[0] != block[-1].start[0] + 1:
            found.append(_comment(module, block))
            block = []
        block.append(token)
    if block:
        found.append(_comment(module, block))
    return tuple(found)


def all_texts() -> Iterator[Text]:
    for module, path in modules():
        yield from texts(module, path)


# --------------------------------------------------------------------------- rule (a)

TRACKER = re.compile(r"\bissue #?\d+|TODO\(integration\)", re.IGNORECASE)


def tracker_offences(text: str) -> list[str]:
    """The issue numbers and ``TODO(integration)`` markers in ``text``."""
    return [m.group(0) for m in TRACKER.finditer(text)]


# --------------------------------------------------------------------------- rule (b)

ROLE = re.compile(r":(mod|func|class|meth|attr|data):`([^`]+)`")


def role_targets(text: str) -> Iterator[tuple[str, str]]:
    """``(role, target)`` of every cross-reference, ``~``, ``!`` and titles stripped."""
    for m in ROLE.finditer(text):
        target = m.group(2).strip()
        titled = re.fullmatch(r".*<([^>]+)>", target, re.DOTALL)
        if titled:
            target = titled.group(1)
        yield m.group(1), target.lstrip("~!").removesuffix("()")


def _instance_attributes(cls: type) -> set[str]:
    """Names a class declares without making them class attributes.

    Annotated fields (dataclasses, named tuples, protocols), ``__slots__`` and the
    ``self.name = ...`` assignments in its methods.
    """
    names: set[str] = set()
    for klass in getattr(cls, "__mro__", (cls,)):
        names.update(getattr(klass, "__annotations__", {}))
        names.update(getattr(klass, "__dataclass_fields__", {}))
        slots = getattr(klass, "__slots__", ())
        names.update([slots] if isinstance(slots, str) else slots)
        module = getattr(klass, "__module__", "")
        if not module.startswith("toypoker"):
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        except (OSError, TypeError, SyntaxError):
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
            ):
                names.add(node.attr)
    return names


_MISSING = object()


def _attribute(obj: object, name: str) -> object:
    """``getattr`` that also finds declared instance attributes (as a marker)."""
    try:
        return getattr(obj, name)
    except AttributeError:
        pass
    if isinstance(obj, type) and name in _instance_attributes(obj):
        return _MISSING  # declared, no class attribute: resolves, nothing below it
    if hasattr(obj, "__file__") and hasattr(obj, "__path__"):  # a package: a submodule?
        try:
            return importlib.import_module(f"{obj.__name__}.{name}")
        except ImportError:
            pass
    raise AttributeError(name)


def resolve(dotted: str) -> bool:
    """Whether ``dotted`` names an importable object (module, then attributes)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        try:
            obj: object = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name is not None and (name == e.name or name.startswith(e.name + ".")):
                continue  # no such module: a shorter prefix, then attributes
            return True  # the module is there; an optional dependency of it is not
        if getattr(obj, "__file__", None) is None and hasattr(obj, "__path__"):
            continue  # a namespace package: a folder left with no module in it
        for i, attr in enumerate(parts[cut:]):
            try:
                obj = _attribute(obj, attr)
            except AttributeError:
                return False
            if obj is _MISSING:
                return i == len(parts[cut:]) - 1
        return True
    return False


def _candidates(module: str, owner: str | None, target: str) -> Iterator[str]:
    """Where Sphinx would look for ``target`` written in ``module`` (inside ``owner``)."""
    if target.startswith("toypoker."):
        yield target
        return
    if target.startswith("."):
        target = target[1:]
    elif owner:
        yield f"{module}.{owner}.{target}"
    scope = module
    while scope:
        yield f"{scope}.{target}"
        scope = scope.rpartition(".")[0]
    yield target  # a library: numpy.ndarray, fractions.Fraction, the builtins


def resolves(module: str, owner: str | None, target: str) -> bool:
    """Whether a role target written in ``module`` (inside class ``owner``) resolves.

    A target broken over two lines does not: Sphinx reads the space as part of it.
    """
    if re.search(r"\s", target):
        return False
    if hasattr(builtins, target):
        return True
    return any(resolve(c) for c in _candidates(module, owner, target))


# --------------------------------------------------------------------------- rule (c)

#: a quantity of time or memory, a speed-up ("25x faster") or a rate ("rounds per
#: second"); not a bound ("at most 2x slower", "no more than 30 s", "within 1 s")
BOUND = r"(?<!than )(?<!most )(?<!within )(?<!least )"
QUANTITY = re.compile(
    BOUND + r"(?<![\w.])\d+(?:\.\d+)?\s?(?:ms|µs|us|ns|s|sec|seconds?|mins?|minutes?|h|hours?"
    r"|[KMGT]i?B)\b"
    r"|" + BOUND + r"(?<![\w.])\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?\s?[x×]\s+(?:faster|slower)\b"
    r"|(?<![\w.])\d[\d,.]*(?:\s?x\s?10\^\d+)?\s+\w+\s+(?:per|a)\s+second\b"
)
#: a word saying the quantity was measured, or an estimate ("about 2 s") of one
MEASURED = re.compile(
    r"\b(?:measured|measures|takes|took|costs?|costing|faster|slower|speed-?up|runs? in|ran in|"
    r"builds? in|built in|spends?|spent|peaks?|peaked|wall|per iteration|an iteration|"
    r"per second|a second|finished in)\b"
    r"|(?<!within )(?:\babout|\broughly|\bnearly|~)\s?\d",
    re.IGNORECASE,
)
#: a pointer to where the measurements are kept
RESULTS = "benchmarks/results/"
#: inline literals (an example of output, a spec) are quoted, not stated
LITERAL = re.compile(r"``.*?``")


def _sentences(text: str) -> Iterator[str]:
    for paragraph in re.split(r"\n\s*\n", text):
        yield from re.split(r"(?<=[.;:!?])\s+(?=[A-Z(*`])", " ".join(paragraph.split()))


def measurements(text: str) -> list[str]:
    """The sentences of ``text`` that state a measured time or memory."""
    return [
        s
        for s in _sentences(text)
        if QUANTITY.search(LITERAL.sub("", s)) and MEASURED.search(s) and RESULTS not in s
    ]


# --------------------------------------------------------------------------- allowlist


def _hit(rule: str, text: str) -> str:
    """How an offence is named in :data:`ALLOWED`: the issue number, the role, or the
    first 60 characters of the sentence stating a measurement."""
    return text[:60] if rule == "measured" else text


@cache
def offences(rule: str) -> dict[str, tuple[str, ...]]:
    """Every offence against ``rule`` in the package, by module."""
    found: dict[str, list[str]] = {}
    for t in all_texts():
        if rule == "tracker":
            hits = tracker_offences(t.text)
        elif rule == "measured":
            hits = measurements(t.text)
        elif t.docstring:
            hits = [
                f":{role}:`{target}`"
                for role, target in role_targets(t.text)
                if not resolves(t.module, t.owner, target)
            ]
        else:
            hits = []
        found.setdefault(t.module, []).extend(_hit(rule, h) for h in hits)
    return {module: tuple(hits) for module, hits in found.items() if hits}


#: being edited; clean next: the offences in modules another engineer is editing now, by
#: rule, then module, each as :func:`_hit` names it, once per occurrence.  A module
#: listed here may hold these and no more; fix one and drop it from the list.
ALLOWED: dict[str, dict[str, list[str]]] = {
    "tracker": {},
    "roles": {},
    "measured": {},
}


def _new(rule: str) -> list[str]:
    allowed = ALLOWED[rule]
    return [
        f"{module}: {hit}"
        for module, hits in offences(rule).items()
        for hit in (Counter(hits) - Counter(allowed.get(module, []))).elements()
    ]


# --------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("rule", ["tracker", "roles", "measured"])
def test_no_new_offences(rule: str) -> None:
    new = _new(rule)
    assert not new, f"{len(new)} new {rule} offence(s):\n" + "\n".join(new)


def test_allowlist_is_current() -> None:
    """An allowed offence that is gone is dropped from the list too."""
    stale = [
        f"{rule} {module}: {hit}"
        for rule, allowed in ALLOWED.items()
        for module, hits in allowed.items()
        for hit in (Counter(hits) - Counter(offences(rule).get(module, ()))).elements()
    ]
    assert not stale, "fixed; remove from ALLOWED:\n" + "\n".join(stale)


def test_tracker_rule_catches() -> None:
    assert tracker_offences("Status (issue 21): equal to the rows.")
    assert tracker_offences("as Issue 47 asks")
    assert tracker_offences("TODO(integration): the old signature")
    assert not tracker_offences("an issue of scale; 21 issues; issued 3 times")


def test_roles_rule_catches() -> None:
    assert list(role_targets(":meth:`~toypoker.game.Game.at`")) == [
        ("meth", "toypoker.game.Game.at")
    ]
    assert list(role_targets(":attr:`Result.bracket <toypoker.result.Result.bracket>`")) == [
        ("attr", "toypoker.result.Result.bracket")
    ]
    assert resolves("toypoker.spec", None, "toypoker.game.Game.at")
    assert resolves("toypoker.engines.vectors.layout", None, ".values")  # the package's
    assert resolves("toypoker.teams.forms", None, ".bounds")
    assert resolves("toypoker.threads", None, "limit_blas")  # a bare name of the module
    assert resolves("toypoker.game", None, "fractions.Fraction")  # a library's
    assert resolves("toypoker.result", None, "toypoker.result.Result.bracket")  # a field
    assert resolves("toypoker.game", None, "toypoker.game.Game.layout")  # a property
    # the known stale references: removed modules, methods and functions
    assert not resolves("toypoker.teams.forms", None, ".team_bounds")
    assert not resolves("toypoker.teams.forms", None, ".team_saddle")
    assert not resolves("toypoker.engines.vectors", None, ".vector_pcs")
    assert not resolves("toypoker.teams.bounds", None, ".store")
    assert not resolves("toypoker.archive", None, "toypoker.profile.Profile.save")
    assert not resolves("toypoker.solvers.solver", None, "toypoker.plots.plot_trace")
    assert not resolves("toypoker.engines", None, "toypoker.vector.layout")  # an empty folder
    # a target broken over two lines is not a link
    assert not resolves("toypoker.engines.vectors.layout", None, "toypoker.games.\n  collusion")


def test_measured_rule_catches() -> None:
    assert measurements("Rhode Island: 0.45 s a check, measured on two cores.")
    assert measurements("A CFR+ iteration is about 25x faster than the row layout's.")
    assert measurements("The whole run took 2 min 27 s and peaked at 2.4 GB.")
    assert measurements("Building it takes about 16 s for three-player Leduc.")
    assert measurements("The loop runs about 1.5 x 10^7 rounds per second on one core.")
    # parameter docs, limits and formulas are not measurements
    assert not measurements("seconds : float\n    The budget, in seconds; 0 means none.")
    assert not measurements("milp_seconds : float\n    Time the MILP took, in seconds.")
    assert not measurements("The choice is never more than 1.5x slower than the other.")
    assert not measurements("Checks run within ~0.2 s of the budget.")
    assert not measurements("The message reads ``32,873,711 rows, about 6.6 GB``.")
    # a sentence pointing to the measurements may quote one
    assert not measurements("It took 0.45 s a check (``benchmarks/results/vector.md``).")
