"""The format check of resumable files (src/toypoker/formats.py; issue 46, item 8: "a
changed format gets a new version and the old one is still read")."""

from __future__ import annotations

import pytest

from toypoker.errors import ToypokerError
from toypoker.formats import FormatError, check_format


def test_the_format_read_and_a_file_without_one_pass():
    assert check_format("toypoker-x/2", "toypoker-x/2", "f.json", "x") == "toypoker-x/2"
    assert check_format(None, "toypoker-x/2", "f.json", "x") is None  # older, unversioned
    assert check_format("toypoker-x/1", "toypoker-x/2", "f", "x", older=("toypoker-x/1",)) == (
        "toypoker-x/1"
    )


@pytest.mark.parametrize(
    "found, says",
    [
        ("toypoker-x/3", "it is of format 'toypoker-x/3', this toypoker reads toypoker-x/2 "
                         "(written by a newer toypoker: upgrade to read it)"),
        ("toypoker-x/1", "it is of format 'toypoker-x/1', this toypoker reads toypoker-x/2"),
        ("toypoker-y/9", "it is of format 'toypoker-y/9', this toypoker reads toypoker-x/2"),
        (7, "it is of format 7, this toypoker reads toypoker-x/2"),
        ("x" * 500, "it is of format 'xxxxxxxx"),
    ],
)  # fmt: skip
def test_any_other_format_is_one_line_naming_the_file_and_both_formats(found, says):
    with pytest.raises(FormatError) as info:
        check_format(found, "toypoker-x/2", "dir/f.json", "x settings")
    text = str(info.value)
    assert isinstance(info.value, ToypokerError) and "\n" not in text
    assert text.startswith("cannot read x settings dir/f.json: ") and says in text
    assert len(text) < 200
    if found in ("toypoker-x/1", "toypoker-y/9", 7):
        assert "newer" not in text
