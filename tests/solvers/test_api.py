"""The solver API: the literal registry, typed options, the stepping Solver,
checkpoints that need nothing else, and the analyses moved from the CLI."""

import json
import zipfile

import numpy as np
import pytest

from toypoker.errors import ToypokerError
from toypoker.profile import Profile
from toypoker.result import Result, Stopped
from toypoker.solvers import METHODS, Solver, load_checkpoint, solve
from toypoker.solvers.analysis import (
    MethodRun,
    compare,
    deviations,
    time_to_target,
)


@pytest.mark.parametrize("method", list(METHODS))
def test_every_method_returns_a_result(method, game):
    g = game("skp") if method == "enumerate" else game("kuhn(players=2)")
    if method == "tmecor":  # a team against one outsider (tests/solvers/test_tmecor.py)
        g = game("kuhn(players=3,cards=4,team=23,sharing=win)")
    seed = 1 if METHODS[method].stochastic else None
    r = solve(g, method, iterations=20, seed=seed)
    assert isinstance(r, Result) and r.method == method and r.game is g
    json.dumps(r.to_json_dict())
    if METHODS[method].one_shot:
        assert r.exact and r.stopped is Stopped.SOLVED
        assert (r.bracket is not None) == (method == "tmecor")
    else:
        assert r.iterations == 20 and r.stopped is Stopped.ITERATIONS and r.nash_conv > 0


def test_unknown_and_unread_options_are_errors(game):
    g = game("kuhn(players=2)")
    with pytest.raises(ToypokerError, match="unknown option.*warp"):
        solve(g, "cfr+", warp=1)
    # MCCFR always alternates and has no delay: once accepted and ignored
    for opt in ("alternating", "delay"):
        with pytest.raises(ToypokerError, match=f"es-mccfr does not read option.*{opt}"):
            solve(g, "es-mccfr", seed=0, **{opt: 1})
    with pytest.raises(ToypokerError, match="es-mccfr does not read option.*epsilon"):
        solve(g, "es-mccfr", seed=0, epsilon=0.5)
    # fictitious play's output is its average: "output" was accepted and ignored
    with pytest.raises(ToypokerError, match="fp does not read option.*output"):
        solve(g, "fp", output="current")
    with pytest.raises(ToypokerError, match="lp does not read option.*floor"):
        solve(g, "lp", floor=True)
    with pytest.raises(ToypokerError, match="deterministic"):
        solve(g, "cfr", seed=3)
    with pytest.raises(ToypokerError, match="one of 'average', 'current'"):
        solve(g, "cfr", output="best")
    with pytest.raises(ToypokerError, match="alpha and beta"):
        solve(g, "dcfr", beta=None)
    with pytest.raises(ToypokerError, match="epsilon"):
        solve(g, "os-mccfr", seed=0, epsilon=0)
    with pytest.raises(ToypokerError, match="checkpoint does not apply"):
        solve(g, "lp", checkpoint="x.npz")


def test_solver_step_equals_solve(game):
    g = game("kuhn(players=3)")
    for method, seed in (("dcfr", None), ("fp", None), ("os-mccfr", 4)):
        s = Solver(g, method, seed=seed)
        s.step(30).step(1).step(9)
        r = solve(g, method, iterations=40, seed=seed)
        assert s.iteration == 40 and np.array_equal(s.profile().probs, r.profile.probs)
        assert s.result().nash_conv == r.nash_conv


def test_solver_lp_and_enumerate_step_once(game):
    s = Solver(game("kuhn(players=2)"), "lp")
    with pytest.raises(ToypokerError, match="step"):
        s.profile()
    assert s.step().profile().exact and s.step(3).iteration == 1
    e = Solver(game("skp"), "enumerate").step()
    with pytest.raises(ToypokerError, match="set of equilibria"):
        e.profile()
    assert len(e.result().equilibria) == 3  # P = 9 > P*: Billingham's three solutions


def test_load_checkpoint_alone_resumes_bit_for_bit(tmp_path, game):
    g = game("kuhn(players=3)")
    ck = tmp_path / "ck.npz"
    solve(g, "os-mccfr", iterations=50, seed=7, epsilon=0.5, checkpoint=ck)
    c = load_checkpoint(ck)
    assert c.method == "os-mccfr" and c.seed == 7 and c.options.epsilon == 0.5
    s = Solver.from_checkpoint(ck)  # compiles the game from the recorded spec
    s.step(70)
    straight = solve(g, "os-mccfr", iterations=120, seed=7, epsilon=0.5)
    assert np.array_equal(s.profile().probs, straight.profile.probs)
    # the option that differs is named, with both values (issue 47: a cut repr before)
    with pytest.raises(ToypokerError, match="was run with epsilon=0.5, not epsilon=0.6"):
        solve(g, "os-mccfr", iterations=120, resume=ck, epsilon=0.6)


def _write_npz(path, meta=None, **arrays):
    import io

    buf = io.BytesIO()
    extra = {} if meta is None else {"__meta__": np.array(json.dumps(meta))}
    np.savez(buf, **extra, **arrays)
    path.write_bytes(buf.getvalue())


def test_malformed_checkpoints_are_one_line_errors(tmp_path, game):
    g = game("kuhn(players=2)")
    good = tmp_path / "good.npz"
    solve(g, "cfr+", iterations=5, checkpoint=good)
    data = good.read_bytes()
    with np.load(good) as z:
        meta = json.loads(str(z["__meta__"]))
        arrays = {k: z[k] for k in z.files if k != "__meta__"}

    def bad(name, content=None, meta_=None, **arr):
        p = tmp_path / name
        if content is not None:
            p.write_bytes(content)
        else:
            _write_npz(p, meta_, **arr)
        return p

    cases = [
        (bad("trunc.npz", data[: len(data) // 2]), "not a valid .npz"),
        (bad("garbage.npz", b"\x00garbage" * 10), "not a valid .npz"),
        (bad("result.json", b'{"format": "toypoker-result/2"}'), "not a valid .npz"),
        (bad("nometa.npz", meta_=None, **arrays), "no metadata"),
        (bad("keys.npz", meta_={k: v for k, v in meta.items() if k != "trace"}, **arrays),
         "missing metadata key.*trace"),
        (bad("shape.npz", meta_=meta, **{**arrays, "regrets": arrays["regrets"][:3]}),
         "float64 vectors of one length"),
        (bad("nan.npz", meta_=meta, **{**arrays, "regrets": arrays["regrets"] * np.nan}),
         "non-finite values in regrets"),
        (bad("field.npz", meta_=meta, regrets=arrays["regrets"]), "missing average"),
        (bad("method.npz", meta_={**meta, "method": "magic"}, **arrays), "unknown method"),
        (bad("opts.npz", meta_={**meta, "options": {"warp": 1}}, **arrays), "unknown option"),
    ]  # fmt: skip
    for path, why in cases:
        with pytest.raises(ToypokerError, match=why) as info:
            load_checkpoint(path)
        msg = str(info.value)
        assert str(path) in msg and "\n" not in msg
    with pytest.raises(ToypokerError, match="is for"):
        Solver.from_checkpoint(good, game("kuhn(players=3)"))
    with pytest.raises(zipfile.BadZipFile):  # (the raw failure the error replaces)
        np.load(tmp_path / "trunc.npz")["regrets"]


def test_corrupt_state_is_never_written_over_a_good_checkpoint(tmp_path, game):
    g = game("kuhn(players=2)")
    ck = tmp_path / "ck.npz"
    s = Solver(g, "cfr")
    s.step(5).save_checkpoint(ck)
    before = ck.read_bytes()
    s.state = type(s.state)(6, s.state.regrets * np.nan, s.state.average, s.state.sigma)
    with pytest.raises(ToypokerError, match="not writing checkpoint.*non-finite"):
        s.save_checkpoint(ck)
    assert ck.read_bytes() == before and load_checkpoint(ck).state.iteration == 5


def test_compare_and_deviations(game):
    g = game("kuhn(players=3)")
    cmp = compare(g, ["cfr+", "lp"], seconds=0.3)
    assert [r.method for r in cmp.runs] == ["cfr+"] and cmp.skipped[0][0] == "lp"
    assert cmp.interrupted is None
    r = cmp.runs[0]
    t = time_to_target(r, 1.0)
    assert t == next(p.seconds for p in r.trace if p.nash_conv <= 1.0)
    assert time_to_target(r, -1.0) is None
    # a saved run reads back as it was (JSON round trip), and a finished run is not rerun
    assert MethodRun.from_json_dict(json.loads(json.dumps(r.to_json_dict()))) == r
    again = compare(g, ["cfr+"], seconds=0.3, done={"cfr+": r})
    assert again.runs == (r,)
    with pytest.raises(ToypokerError, match="not a method run"):
        MethodRun.from_json_dict({"method": "cfr+"})
    # Ctrl-C before a method's run handles it (its set-up, a first compile): the methods
    # finished are kept and the one cut is named, as for a Ctrl-C during its iterations
    real_run = Solver.run

    def cut_fp(self, *args, **kwargs):
        if self.method.name == "fp":
            raise KeyboardInterrupt
        return real_run(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Solver, "run", cut_fp)
        cut = compare(g, ["cfr+", "fp"], seconds=0.3)
    assert [r.method for r in cut.runs] == ["cfr+"] and cut.interrupted == "fp"
    # uniform play is not one of Kuhn's (1950) equilibria: with a King a player
    # should always call, so both players gain by deviating; the LP's profile is certified
    k = game("kuhn(players=2)")
    dev = deviations(k, Profile.uniform(k, exact=True))
    assert not dev.equilibrium and set(dev.deviations) == {"P1", "P2"}
    assert dev.to_json_dict()["best_response_deviations"] == dev.deviations
    lp = solve(k, "lp")
    assert deviations(k, lp.profile).equilibrium


def test_exact_lp_of_a_small_team_game_gives_exact_team_numbers():
    """The team line of an exact LP on three-player Kuhn said 0.0833333333333 where the
    README showed 1/12 (the profile was turned to floats before the team's evaluation).
    Expected: the merged team's exact LP value 1/12 for team 23 (tests/test_teams.py's
    strong Kuhn values), its joint best response equal, gain exactly 0."""
    from fractions import Fraction

    from toypoker.games import load_rows

    res = solve(load_rows("kuhn(players=3,team=23,strong=true)"), "lp")
    assert res.team is not None
    assert res.team.value == Fraction(1, 12) and isinstance(res.team.value, Fraction)
    assert res.team.br_value == Fraction(1, 12) and res.team.gain == 0
