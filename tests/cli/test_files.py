"""Issue 35 items 1, 2, 4 and 5 on the command line: outputs go where the user means,
runs never clobber each other, no hidden files, a closed pipe ends quietly."""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
import threading
import time

import pytest

from .conftest import toypoker_process

K2 = "kuhn(players=2)"


# ------------------------------------------------------------- 35.1: -o kinds of path
def test_dash_o_through_a_symlink_writes_its_target(cli, tmp_path):
    # before: the link was replaced by a regular file, its target left unchanged
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "p.json"
    link.symlink_to(target)
    code, _, err = cli("solve", K2, "--iterations", "5", "-o", link)
    assert code == 0, err
    assert link.is_symlink() and '"format"' in target.read_text()


def test_dash_o_to_a_fifo_feeds_its_reader(cli, tmp_path):
    # before: the FIFO became a regular file and its reader got nothing
    fifo = tmp_path / "p.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code, _, err = cli("solve", K2, "--iterations", "5", "-o", fifo)
    reader.join(60)
    assert code == 0, err
    assert got and b'"format"' in got[0]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_dash_o_a_device_is_left_a_device(cli, char_device):
    # before (as root): /dev/null was replaced by a regular file
    null = char_device("null")
    code, _, err = cli("solve", K2, "--iterations", "5", "-o", null)
    assert code == 0, err
    assert stat.S_ISCHR(os.stat(null).st_mode)


# --------------------------------------------- 35.5: a closed pipe exits 0, quietly
@pytest.mark.parametrize(
    "args",
    [
        ("solve", K2, "--method", "lp"),  # an equilibrium: exit 0 anyway
        ("solve", K2, "--iterations", "3", "--json"),  # JSON written by print
        ("games",),
        ("info", "leduc(players=2)"),
    ],
    ids=["solve-lp", "solve-json", "games", "info"],
)
def test_a_closed_pipe_ends_the_command_with_exit_0_and_nothing_on_stderr(args):
    # before: rich's own answer to EPIPE, SystemExit(1), the documented "not an
    # equilibrium" status, for every command writing through the console
    proc = toypoker_process(*args)
    proc.stdout.close()  # the reader is gone before the first line (`| head -0`)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert err == ""


@pytest.mark.parametrize("args", [("solve", K2, "--iterations", "3", "--json"), ("games",)])
def test_a_closed_pipe_exits_0_when_stdout_is_block_buffered(args):
    # as a shell pipes it (no PYTHONUNBUFFERED): before, what print() left in Python's
    # buffer failed at exit, "Exception ignored ... BrokenPipeError" and status 120
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    proc = subprocess.Popen([sys.executable, "-m", "toypoker", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (0, "")


def test_a_closed_pipe_on_verify_exits_0(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "toypoker", "solve", K2, "--method", "lp", "-o", "p.json"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    proc = toypoker_process("verify", K2, "p.json", cwd=tmp_path)
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (0, "")


# ------------------------------------------------ 35.4: a solve writes no hidden file
def _limit_file_size() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def test_a_solve_asked_for_no_file_runs_under_a_file_size_limit_of_0(tmp_path):
    # before: "cannot write or read: File too large" (the hidden temporary checkpoint,
    # naming no file), exit 2
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "toypoker", "solve", K2, "--iterations", "50"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        preexec_fn=_limit_file_size,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert os.listdir(tmp_path) == []  # nothing written into TMPDIR either


def test_a_file_the_user_asked_for_names_itself_when_it_cannot_be_written(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "toypoker", "solve", K2, "--iterations", "5", "-o", "p.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        preexec_fn=_limit_file_size,
        timeout=120,
    )
    assert done.returncode == 2
    # (numba may warn first that it could not create its import lock)
    last = done.stderr.splitlines()[-1]
    assert last == "toypoker: error: cannot write p.json: File too large"


# ------------------------------------------- 35.2: runs never clobber each other
def _wait_for(path, proc, seconds=120.0) -> None:
    t0 = time.monotonic()
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() - t0 < seconds, f"{path} never appeared"
        time.sleep(0.05)


def test_a_second_run_on_a_live_checkpoint_refuses_naming_the_first(tmp_path):
    # before: both ran and overwrote each other's ck.npz; the resume then failed
    # ("checkpoint ck.npz is for method pdcfr+, not cfr+")
    first = toypoker_process(
        "solve", "leduc(players=2)", "--iterations", "100000000", "--checkpoint", "ck.npz",
        cwd=tmp_path,
    )  # fmt: skip
    try:
        _wait_for(tmp_path / "ck.npz.lock", first)
        second = toypoker_process(
            "solve", K2, "--method", "pdcfr+", "--iterations", "5", "--checkpoint", "ck.npz",
            cwd=tmp_path,
        )  # fmt: skip
        _, err = second.communicate(timeout=120)
        assert second.returncode == 2
        assert err == (
            f"toypoker: error: checkpoint ck.npz is in use by another run (pid {first.pid}); "
            "wait for it to end, or give another path\n"
        )
    finally:
        first.terminate()  # SIGTERM: stop, save, say so (like Ctrl-C)
        _, err = first.communicate(timeout=120)
    assert first.returncode == 130, err
    assert "state saved in ck.npz" in err
    assert sorted(os.listdir(tmp_path)) == ["ck.npz"]  # the lock gone with the run
    resumed = toypoker_process(
        "solve", "leduc(players=2)", "--iterations", "1", "--resume", "ck.npz", cwd=tmp_path
    )
    _, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err  # what the run said it saved is there


# ------------------------------- 35.5 / 34.4: the files toypoker writes read back cleanly
def test_a_profile_toypoker_wrote_reads_back_without_a_snapping_note(cli, tmp_path):
    # before: `solve -o p.json` then `eval`/`verify` noted "decimals at P1:1: and 11 more
    # did not sum to 1 exactly; snapped onto the simplex" about toypoker's own floats
    prof = tmp_path / "p.json"
    assert cli("solve", K2, "--iterations", "100", "-o", prof)[0] == 0
    for command in ("eval", "verify"):
        code, _, err = cli(command, K2, prof)
        assert code in (0, 1) and "snapped" not in err, err  # 1: verify's "not an equilibrium"
    hand = tmp_path / "hand.json"  # decimals written by hand: still noted
    hand.write_text(prof.read_text().replace('"exact": false,', ""))
    assert "snapped onto the simplex" in cli("verify", K2, hand)[2]


@pytest.mark.parametrize("name", ["p.json", "r.json"])
def test_a_file_of_another_format_version_is_refused_naming_both(cli, one_line_error, tmp_path,
                                                                 name):  # fmt: skip
    # before: a profile file of another format version was read as version 1
    path = tmp_path / name
    option = "-o" if name == "p.json" else "--result"
    assert cli("solve", K2, "--iterations", "5", option, path)[0] == 0
    text = path.read_text()
    path.write_text(text.replace("toypoker-profile/1", "toypoker-profile/9", 1)
                    .replace("toypoker-result/2", "toypoker-result/9", 1))  # fmt: skip
    err = one_line_error("eval", K2, path)
    version = "toypoker-profile/9" if name == "p.json" else "toypoker-result/9"
    assert f"format '{version}'" in err
    assert "toypoker-profile/1" in err and "toypoker-result/2" in err
