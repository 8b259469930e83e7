"""What the report is made of: papers, items (a claim checked, or a figure drawn)
and their results, all frozen and convertible to plain JSON types."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from toypoker.errors import ToypokerError
from toypoker.literature.claims import Row


@dataclass(frozen=True)
class Paper:
    """One paper of the report: its page's id (the file ``<id>.html``), title and
    what it is about."""

    id: str
    title: str
    citation: str
    about: str


@dataclass(frozen=True)
class Image:
    """A figure file of an item, relative to the report folder, and its caption."""

    file: str
    caption: str

    def to_dict(self) -> dict[str, object]:
        """As plain JSON types."""
        return {"file": self.file, "caption": self.caption}


@dataclass(frozen=True)
class Table:
    """A small table of an item's numbers (all cells already formatted)."""

    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def to_dict(self) -> dict[str, object]:
        """As plain JSON types."""
        rows = [list(r) for r in self.rows]
        return {"caption": self.caption, "header": list(self.header), "rows": rows}


@dataclass(frozen=True)
class ItemOutput:
    """What an item's function returns; files are relative to the item's folder.

    ``rows`` are comparisons with printed numbers (counted per paper), ``images``
    ``(file, caption)`` pairs, ``files`` other data files worth a link.
    """

    rows: tuple[Row, ...] = ()
    images: tuple[tuple[str, str], ...] = ()
    tables: tuple[Table, ...] = ()
    files: tuple[str, ...] = ()
    notes: str = ""


#: ``run_command(argv)``: run ``toypoker ARGV`` (with ``--json``) and return its JSON
#: output; handed to the report by its caller (``toypoker reproduce`` passes one that
#: runs the command line in-process), so the report never imports the command line
CommandRunner = Callable[[Sequence[str]], dict]


def _no_runner(argv: Sequence[str]) -> dict:
    raise ToypokerError(
        f"this item runs 'toypoker {' '.join(argv[:2])} ...': give compute() a run_command "
        "(toypoker reproduce passes one)"
    )


@dataclass(frozen=True)
class RunContext:
    """What an item's function gets: its own output folder, the seed, the checked
    rows of any claim (this run's, an earlier run's, or computed now), and the
    runner of the ``toypoker`` commands that draw the figures."""

    folder: Path
    seed: int
    rows_of: Callable[[str], tuple[Row, ...]]
    run_command: CommandRunner = _no_runner


@dataclass(frozen=True)
class Task:
    """One item of the report, not yet computed.

    ``command`` recreates it (shown on the page); ``key`` identifies its inputs
    (the cache is keyed by it, so ``--quick`` and full results live side by
    side); ``run`` computes it; ``own_progress``: it shows its own progress bar.
    """

    id: str
    paper: str
    kind: str  # "claim" or "figure"
    title: str
    command: str
    key: str
    run: Callable[[RunContext], ItemOutput] = field(repr=False, compare=False)
    own_progress: bool = False


@dataclass(frozen=True)
class ItemResult:
    """One computed item: its rows, images (paths relative to the report folder),
    tables, data files, run time, and the error if it failed (then nothing is cached)."""

    item: str
    paper: str
    kind: str
    title: str
    command: str
    key: str
    seconds: float
    rows: tuple[Row, ...] = ()
    images: tuple[Image, ...] = ()
    tables: tuple[Table, ...] = ()
    files: tuple[str, ...] = ()
    notes: str = ""
    error: str = ""
    cached: bool = False

    def to_dict(self) -> dict[str, object]:
        """As plain JSON types (``cached`` is a property of one run and is left out)."""
        return {
            "item": self.item,
            "paper": self.paper,
            "kind": self.kind,
            "title": self.title,
            "command": self.command,
            "key": self.key,
            "seconds": self.seconds,
            "rows": [r.to_dict() for r in self.rows],
            "images": [i.to_dict() for i in self.images],
            "tables": [t.to_dict() for t in self.tables],
            "files": list(self.files),
            "notes": self.notes,
            "error": self.error,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, object], cached: bool = True) -> ItemResult:
        """The result written by :meth:`to_dict`."""
        return cls(
            item=str(d["item"]),
            paper=str(d["paper"]),
            kind=str(d["kind"]),
            title=str(d["title"]),
            command=str(d["command"]),
            key=str(d["key"]),
            seconds=float(d["seconds"]),  # type: ignore[arg-type]
            rows=tuple(Row(**r) for r in d["rows"]),  # type: ignore[union-attr]
            images=tuple(Image(**i) for i in d["images"]),  # type: ignore[union-attr]
            tables=tuple(
                Table(t["caption"], tuple(t["header"]), tuple(tuple(r) for r in t["rows"]))
                for t in d["tables"]  # type: ignore[union-attr]
            ),
            files=tuple(d["files"]),  # type: ignore[arg-type]
            notes=str(d.get("notes", "")),
            error=str(d.get("error", "")),
            cached=cached,
        )


__all__ = [
    "CommandRunner",
    "Image",
    "ItemOutput",
    "Paper",
    "ItemResult",
    "RunContext",
    "Table",
    "Task",
]
