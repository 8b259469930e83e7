"""Which layout a command runs on, and its refusals (src/toypoker/cli/layouts.py).

Expected sizes: the counted rows of the full Rhode Island game, 438,275,565 (exact on
compiled decks in tests/games/test_layout_count.py), x 200 bytes a row
(layout_count.BYTES_PER_ROW) = 87.7 GB; ``rhode_island(ranks=8)``: 56,785,680 rows
(11.4 GB), which ``load_game``'s own budget (deals x public nodes x players x 8 bytes)
admits, while the full deck's it does not (366,145 deals x >= 1,197 public nodes x 2
players x 8 bytes > 2^31, the refusal's own estimate)."""

from __future__ import annotations

import pytest

from toypoker.engines.choice import rows_refusal

FULL = "rhode_island"
ADMITTED = "rhode_island(ranks=8)"  # rows counted past 2 GB, within load_game's budget


def _no_build(spec: str, *a: object, **k: object) -> None:
    raise AssertionError(f"built {spec}")


@pytest.mark.parametrize(
    "args",
    [
        ("solve", FULL, "--method", "es-mccfr"),
        ("solve", "rhode_island(players=3,team=12,strong=true)"),
        ("solve", "rhode_island(players=3,team=12,strong=true)", "--layout", "vector"),
        ("eval", FULL, "PROFILE", "--exact"),
        ("verify", FULL, "PROFILE"),
    ],
)
def test_a_refusal_never_names_rows_load_game_refuses(
    cli, one_line_error, tmp_path, monkeypatch, args
):
    """Audit of issue 21/22: these refusals said ``--layout rows builds them anyway``
    while ``solve rhode_island --layout rows`` is refused by load_game's budget (two 2 GB
    rules).  One rule now (rows_refusal = load_game's check_size): the way out is not
    named where it is refused too; the row size is still said."""
    # the full game's vectors peak at about 3.2 GB, the estimate the budget is held to
    # (issue 47): the default budget (half the machine's memory) admits them, 2 GiB not
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "8e9")
    args = tuple(str(tmp_path / "p.npz") if a == "PROFILE" else a for a in args)
    err = one_line_error(*args)
    assert "--layout rows" not in err and "..." not in err, err
    assert "too large to compile" in err and ("GB" in err or "TB" in err), err
    # and indeed the rows are refused: the option the old text proposed fails
    code, _, rows_err = cli(*args, "--layout", "rows")
    assert code == 2 and "too large to compile" in rows_err


def test_a_refusal_names_rows_load_game_admits(one_line_error, monkeypatch):
    """Where load_game's budget admits the rows (counted 11.4 GB, past the 2 GB at which
    solve prefers vectors; the default budget is 2 GB, so here 20 GB are allowed),
    ``--layout rows`` stays the named way out; nothing built."""
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", str(20 * 2**30))
    monkeypatch.setattr("toypoker.engines.load_rows", _no_build)
    err = one_line_error("solve", ADMITTED, "--method", "es-mccfr")
    assert "56,785,680 rows, about 11.4 GB (--layout rows builds them anyway)" in err, err


def test_the_team_gain_note_names_rows_only_where_they_are_built(cli, tmp_path, monkeypatch):
    """On the vector layout a weak team's gain is not computed; the line named
    ``--layout rows`` whatever the budget.  Under a budget of 1,000 bytes load_game
    refuses even kuhn(players=3)'s rows (its refusal: the 24 deals are built in 192 x 8
    bytes > 1,000), so the line says so instead (test failed before: it named rows)."""
    spec = "kuhn(players=3,team=12)"
    prof = tmp_path / "p.json"
    assert cli("solve", spec, "--iterations", "5", "-o", prof, "--no-table")[0] == 0
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "1000")
    assert rows_refusal(spec) is not None
    code, out, err = cli("eval", spec, prof, "--layout", "vector")
    assert code == 0, err
    assert "team gain: not computed on the vector layout (its rows are too large)" in out
    code, out, err = cli("solve", spec, "--layout", "vector", "--iterations", "5", "--no-table")
    assert code == 0, err
    assert "team gain: not computed on the vector layout (its rows are too large)" in out


def test_lp_with_a_team_is_refused_on_vectors_before_building(one_line_error, monkeypatch):
    """The exact LP on the vector layout takes no collusion payoff map: ``solve
    "kuhn(players=3,team=12)" --layout vector --method lp`` built the vectors, then
    refused with the library's line cut mid-spec, naming --layout rows whatever the
    budget.  Now refused before building, in one line, under the one rule (test failed
    before: 'layout: vector' and 'built' on stderr, then the cut line)."""
    monkeypatch.setattr("toypoker.engines.build_vector", _no_build)
    spec = "kuhn(players=3,team=12)"
    err = one_line_error("solve", spec, "--layout", "vector", "--method", "lp")
    assert "--method lp does not run on the vector layout" in err, err
    assert "--layout rows runs it on the rows" in err and "..." not in err, err
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "1000")  # kuhn's rows refused (see above)
    err = one_line_error("solve", spec, "--layout", "vector", "--method", "lp")
    assert "--layout rows" not in err and "too large to compile" in err, err
    assert "use the CFR family, fp or pcs-cfr+" in err, err
