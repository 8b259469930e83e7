"""``toypoker trace``."""

import json

import pytest
from PIL import Image

import toypoker.deal_table


@pytest.mark.parametrize(
    "args, message",
    [
        (["--pot", "-1:5"], "pot must stay positive"),
        (["--pot", "5:2"], "LO < HI"),
        (["--pot", "a:b"], "LO:HI"),
        (["--pot", "1:inf"], "finite"),
        ([], "--pot LO:HI"),
        (["--param", "cards", "--range", "1:2"], "numeric parameter"),
        (["--pot", "1:5", "--at", "7"], "outside"),
        (["--pot", "1:5", "--at", "nan"], "finite"),
        (["--pot", "1:5", "--seed", "-1"], "--seed"),
        (["--pot", "1:5", "--ds-max", "0"], "--ds-max"),
        (["--pot", "1:5", "--eps", "nan"], "--eps"),
        (["--resume", "/nonexistent/curve.csv"], "cannot read curve"),
    ],
)
def test_bad_trace_input_is_one_line(one_line_error, tmp_path, args, message):
    err = one_line_error("trace", "kuhn(players=3)", "--outdir", tmp_path / "t", *args)
    assert message in err


@pytest.mark.slow
def test_trace_writes_curve_plots_and_certified_equilibria(cli, tmp_path, monkeypatch):
    # Billingham (N cards), Sec. 5.1 / Szafron et al.: N = 4 at P = 3 has E2 = -1/48
    compiled = []
    compile_game = toypoker.deal_table.compile_game

    def counting(*a, **kw):
        compiled.append(1)
        return compile_game(*a, **kw)

    monkeypatch.setattr(toypoker.deal_table, "compile_game", counting)
    code, out, err = cli(
        "trace", "kuhn(players=3,cards=4)", "--pot", "2.5:3.5", "--at", "3",
        "--outdir", tmp_path, "--no-gif", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["reason"] == "reached" and data["eps"] == 1e-6 and data["complete"]
    (eq,) = data["equilibria"][0]["list"]
    assert abs(eq["expectations"][1] + 1 / 48) < 1e-12 and eq["nash_conv"] < 1e-6
    for f in [
        "curve.csv",
        "curve.csv.json",
        "expectations.png",
        "frequencies.png",
        "multiplicity.csv",
        "multiplicity.png",
        "ranges_pot3.png",
    ]:
        assert (tmp_path / f).stat().st_size > 0, f
    assert len(compiled) == 1  # issue 10: the game is compiled once


@pytest.mark.slow
def test_trace_summary_says_eps_and_unpolished(cli, tmp_path):
    code, out, _ = cli(
        "trace", "kuhn(players=3,cards=4)", "--pot", "2.5:3.5", "--outdir", tmp_path, "--no-gif"
    )
    assert code == 0 and "eps = 1e-06" in out and "distinct equilibria" in out


@pytest.mark.slow
def test_trace_animation(cli, tmp_path):
    # three frames (the default 40 take half a minute to draw)
    code, _, err = cli("trace", "kuhn(players=3,cards=4)", "--pot", "2.5:3.5",
                       "--outdir", tmp_path, "--gif", "--frames", "3")  # fmt: skip
    assert code == 0, err
    gif = Image.open(tmp_path / "animation.gif")
    assert gif.format == "GIF" and gif.n_frames == 3


def test_trace_frames_below_two_are_refused(cli, tmp_path):
    code, _, err = cli("trace", "skp", "--pot", "2:3", "--outdir", tmp_path, "--frames", "1")
    assert code == 2 and err.count("\n") == 1 and "--frames" in err, err


@pytest.mark.slow
def test_ctrl_c_during_trace_saves_and_resumes(cli, tmp_path):
    import signal
    import time

    from .conftest import toypoker_process
    from .test_solve import _resume_args

    args = ["trace", "kuhn(players=3,cards=5)", "--pot", "2.5:4", "--no-gif"]
    proc = toypoker_process(
        *args, "--outdir", tmp_path / "a", "--checkpoint-every", "0.2", cwd=tmp_path
    )
    ckpt = tmp_path / "a" / "curve.csv"
    t0 = time.monotonic()
    while not ckpt.exists():
        assert proc.poll() is None and time.monotonic() - t0 < 60
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    hint = _resume_args(err)
    assert hint[hint.index("--resume") + 1] == str(ckpt) and "--outdir" in hint
    code, _, err = cli(*hint)
    assert code == 0, err
    assert cli(*args, "--outdir", tmp_path / "b")[0] == 0

    def rows(folder):
        lines = (tmp_path / folder / "multiplicity.csv").read_text().splitlines()[1:]
        return [[float(x) for x in line.split(",")] for line in lines]

    # the same branch: the same counts between the same turning points (arclength steps
    # after the resume differ, so the interval ends -- located between traced points --
    # agree to the step size, not bitwise: 1.1e-4 relative seen once, hence 1e-3)
    a, b = rows("a"), rows("b")
    assert [r[2:] for r in a] == [r[2:] for r in b]
    assert [x for r in a for x in r[:2]] == pytest.approx([x for r in b for x in r[:2]], rel=1e-3)


@pytest.mark.slow
def test_partial_curve_is_not_a_silent_success(cli, tmp_path):
    # issue 14: `trace skp --eps 1e-8` stops with "step too small" on a partial curve
    code, out, err = cli(
        "trace", "skp", "--pot", "1:20", "--eps", "1e-8", "--no-gif", "--outdir", tmp_path, "--json"
    )
    data = json.loads(out)
    assert code == 1 and data["complete"] is False and "step too small" in data["reason"]
    # progress lines (every few seconds: stderr is not a terminal) may come before it
    assert err.splitlines()[-1].startswith("toypoker: warning: the curve stopped early")
    assert (tmp_path / "curve.csv").exists()


@pytest.mark.slow
def test_eps_trace_resumes_from_the_command_line(cli, tmp_path):
    # issue 14 item 6: an interrupted eps trace (the logit branch) resumes with --resume
    from toypoker import Interrupted, load_game, trace_curve

    calls = {"n": 0}

    def progress(stage, lam, ds):
        calls["n"] += 1
        if calls["n"] == 6:
            raise KeyboardInterrupt

    spec = "kuhn(players=3)"
    ckpt = tmp_path / "a" / "curve.csv"
    ckpt.parent.mkdir()
    with pytest.raises(Interrupted) as stop:
        trace_curve(load_game(spec), "eps", 1e-4, 1.0, progress=progress, checkpoint=ckpt)
    assert stop.value.result.stopped == "interrupted"
    code, out, err = cli("trace", spec, "--resume", ckpt, "--no-gif", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["complete"] and data["reason"] == "reached"
    code, out2, err = cli(
        "trace", spec, "--param", "eps", "--range", "1e-4:1", "--no-gif", "--json",
        "--outdir", tmp_path / "b",
    )  # fmt: skip
    assert code == 0, err
    whole = json.loads(out2)
    assert whole["reason"] == "reached"


def test_a_region_without_polished_equilibria_is_not_a_result(capsys, tmp_path):
    """Issue 24: "0 distinct equilibria" was printed as if it were a finding; a region
    or a value where no crossing polished says that nothing was certified there."""
    from types import SimpleNamespace

    from toypoker import load_game
    from toypoker.cli.trace import _summary

    g = load_game("kuhn(players=3)")
    curve = SimpleNamespace(theta=[1, 2], steps=5, seconds=0.1, reason="reached")
    rows = [(2.0, 2.5, 1, 1, 0), (2.5, 3.0, 3, 0, 2)]
    _summary(g, curve, "pot", 2, 3, 1e-6, rows, [(2.75, [])], tmp_path)
    out = capsys.readouterr().out
    assert "0 distinct" not in out
    assert "no crossing polished to an equilibrium (2 unpolished)" in out
    assert "pot = 2.75: no equilibrium polished" in out
    capsys.readouterr()
    _summary(g, curve, "pot", 2, 3, 1e-6, [(2.0, 3.0, 2, 0, 2)], [], tmp_path)
    out = capsys.readouterr().out
    assert "up to 0" not in out and "no crossing polished" in out
