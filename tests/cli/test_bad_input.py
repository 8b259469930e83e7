"""Bad input and faults as a new user throws them at the CLI (issue 14's audit).

Every case must end with exit status 2 and exactly one line on stderr
(``toypoker: error: ...``), fast, with nothing allocated beyond a size estimate:
no traceback, no hang, no garbage result with exit 0.  The cases are the ones
the audit names (sections 1, 2, 3, 5 and 7 of the issue), written as a user
would type them.
"""

from __future__ import annotations

import time

import pytest

# (arguments, a word the one-line message must contain)
CASES: list[tuple[tuple[str, ...], str]] = [
    # 2. small inputs that exhausted memory or hung: refused by a size estimate or a bound
    (("info", "kuhn(players=10)"), "too large to compile"),
    (("info", "kuhn(players=50)"), "too large to compile"),
    (("info", "kuhn(players=999)"), "too large to compile"),
    (("info", "kuhn(players=1000000000)"), "players <= 1000"),
    (("info", "kuhn_third_street(cards=500)"), "too large to compile"),
    (("info", "kuhn_third_street(cards=1000000000)"), "cards <= 100000"),
    (("info", "kuhn(players=2,cards=1000000000)"), "cards <= 100000"),
    (("info", "kuhn(players=3,pot=1e999999999)"), "exponents are limited"),
    (("info", "kuhn(players=3,pot=1e-999999999)"), "exponents are limited"),
    (("info", "kuhn(players=3,pot=1e400)"), "exponents are limited"),
    (("info", "kuhn(players=3,pot=-2)"), "positive"),
    (("info", "kuhn(players=3"), "malformed"),
    (("equilibria", "skp", "--symbolic-pot", "--pot-min", "1e999999999"), "exponents"),
    (("trace", "kuhn(players=3,cards=4)", "--pot", "1:inf"), "finite"),
    (("trace", "kuhn(players=3,cards=4)", "--pot", "3:2"), "LO < HI"),
    (("dynamics", "ode", "--basins-grid", "100000"), "at most"),
    # 5. tracebacks that must be one line
    (("eval", "kuhn(players=2)", "g42.json"), "game"),
    (("eval", "kuhn(players=2)", "tiny.json", "--exact"), "exponents"),
    (("eval", "kuhn(players=2)", "bin.json"), "JSON"),
    (("eval", "kuhn(players=2)", "nested.json"), "nested"),
    (("eval", "kuhn(players=2)", "nan.json", "--exact"), "NaN"),
    (("eval", "kuhn(players=2)", "/dev/zero"), "/dev/zero is not a profile"),
    (("eval", "kuhn(players=2)", "missing.json"), "missing.json"),
    (("verify", "kuhn(players=2)", "other-game.json"), "kuhn(players=3"),
    (("solve", "kuhn(players=2)", "--resume", "trunc.npz"), "trunc.npz"),
    (("solve", "kuhn(players=2)", "--resume", "notnpz.npz"), "not a checkpoint"),
    (("solve", "kuhn(players=2)", "--resume", "g42.json"), "not a checkpoint"),
    (("solve", "kuhn(players=2)", "--resume", "empty.npz"), "empty.npz"),
    (("solve", "kuhn(players=2)", "--seed", "-1"), "--seed"),
    (("compare", "kuhn(players=2)", "--seed", "-3"), "--seed"),
    (("trace", "kuhn(players=3,cards=4)", "--pot", "2:3", "--seed", "-1"), "--seed"),
    (("dynamics", "play", "--seed", "-1"), "--seed"),
    (("dynamics", "table1", "--seed", "-1"), "--seed"),
    (("dynamics", "ode", "--y0", "2,3,4"), "[0, 1]"),
    (("dynamics", "ode", "--basins-grid", "0"), "at least 1"),
    (("dynamics", "estimators", "--L", "0"), "--L"),
    # 7. nonsense that was accepted with exit 0
    (("solve", "kuhn(players=2)", "--seconds", "-5"), "--seconds"),
    (("solve", "kuhn(players=2)", "--seconds", "nan"), "--seconds"),
    (("solve", "kuhn(players=2)", "--target-nash-conv", "nan"), "--target-nash-conv"),
    (("solve", "kuhn(players=2)", "--target-nash-conv", "-1"), "--target-nash-conv"),
    (("dynamics", "play", "--k", "nan"), "--k"),
    (("dynamics", "ode", "--t-end", "-5"), "--t-end"),
    (("dynamics", "play", "--record-every", "0"), "--record-every"),
    (("trace", "kuhn(players=3,cards=4)", "--pot", "2:3", "--ds-max", "0"), "--ds-max"),
    (("compare", "kuhn(players=2)", "--methods", "nope"), "unknown method"),
    (("equilibria", "skp", "--pot-min", "5"), "--symbolic-pot"),
    # 3. output paths checked before any work (a long budget proves no work was done)
    (("solve", "kuhn(players=2)", "--iterations", "100000000", "-o", "no/dir/p.json"), "exist"),
    (("solve", "kuhn(players=2)", "--iterations", "100000000", "-o", "."), "folder"),
    (("solve", "kuhn(players=2)", "--iterations", "100000000", "--csv", "g42.json/x"), "file"),
    (("solve", "kuhn(players=2)", "--iterations", "100000000", "--checkpoint", "."), "folder"),
    (("solve", "kuhn(players=2)", "--iterations", "100000000", "--result", "."), "folder"),
    (("compare", "kuhn(players=2)", "--seconds", "1000", "--plot", "no/dir/c.png"), "exist"),
    (("trace", "kuhn(players=3,cards=4)", "--pot", "2:3", "--outdir", "g42.json"), "file"),
    (("export", "kuhn(players=3)", "--format", "efg", "-o", "no/dir/x.efg"), "exist"),
    (("literature", "check", "-o", "no/dir/x.json"), "exist"),
    (("dynamics", "table1", "--csv", "no/dir/t.csv"), "exist"),
]


@pytest.fixture
def files(tmp_path, monkeypatch):
    """The malformed files of the audit, in a fresh working folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "g42.json").write_text('{"format":"toypoker-profile/1","game":42,"infosets":{}}')
    (tmp_path / "tiny.json").write_text(
        '{"game":"kuhn(players=2)","infosets":{"P1:1:":{"k":"1e-999999999","b":1}}}'
    )
    (tmp_path / "nan.json").write_text(
        '{"game":"kuhn(players=2)","infosets":{"P1:1:":{"k":NaN,"b":1}}}'
    )
    (tmp_path / "other-game.json").write_text(
        '{"game":"kuhn(players=3)","exact":true,"infosets":{}}'
    )
    (tmp_path / "bin.json").write_bytes(b"\x00\x01\x02garbage")
    (tmp_path / "nested.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "trunc.npz").write_bytes(b"PK\x03\x04trunc")
    (tmp_path / "notnpz.npz").write_text('{"a": 1}')
    (tmp_path / "empty.npz").write_bytes(b"")
    return tmp_path


@pytest.mark.parametrize("args,word", CASES, ids=[" ".join(a) for a, _ in CASES])
def test_bad_input_is_one_line_and_exit_2(files, one_line_error, args, word):
    t0 = time.monotonic()
    message = one_line_error(*args)
    assert word in message, message
    assert time.monotonic() - t0 < 30, "bad input must be refused before any real work"
