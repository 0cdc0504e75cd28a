"""analyzer.warmup: every kernel compiled once, a game's warm-up groups each in a process of its own."""

from analyzer.games import games


def test_each_warm_up_group_compiles_its_own_experiments_and_together_all(monkeypatch):
    from analyzer import job as job_module

    compiled = []
    monkeypatch.setattr(job_module, "warm_up", lambda job: compiled.append(job))
    for game in games().values():
        groups = game.warm_groups()
        assert set(groups) == {e.warm_group for e in game.experiments} and len(groups) == len(set(groups))
        per_group = {}
        for group in groups:
            compiled.clear()
            game.warm_up(group)
            per_group[group] = len(compiled)
            expected = sum(len(e.example().jobs) for e in game.experiments if e.warm_group == group)
            assert per_group[group] == expected > 0, (game.id, group)
        compiled.clear()
        game.warm_up()
        assert len(compiled) == sum(per_group.values())
    assert games()["seafarers"].warm_groups() == ["", "full game"]  # the full game's kernels apart


COMPILED_AFTER_WARM_UP = """
import sys, tempfile
from pathlib import Path
from numba.core import sigutils
from numba.core.dispatcher import Dispatcher

added = []  # (kernel, argument types) taken up after the warm-up: compiled, or loaded from a cache it did not write
recording = False
compile_ = Dispatcher.compile


def compile_and_note(self, sig):
    new = tuple(sigutils.normalize_signature(sig)[0]) not in self.overloads
    result = compile_(self, sig)
    if new and recording:
        added.append(f"{self.py_func.__module__}.{self.py_func.__qualname__}{sig}")
    return result


Dispatcher.compile = compile_and_note
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.games import games

for game in games().values():
    game.warm_up()
recording = True
with tempfile.TemporaryDirectory() as folder:
    for game in games().values():
        for experiment in game.experiments:
            example = experiment.example()
            argv = list(example.argv)
            if example.writes_results:
                argv += ["--out", str(Path(folder) / f"{game.id}-{experiment.command}")]
            result = CliRunner().invoke(app, argv)
            assert result.exit_code == 0, (argv, result.output)
print("\\n".join(added))
"""


def test_every_example_command_runs_on_the_kernels_the_warm_up_compiled():
    """A user's first command starts warm: each experiment's example command line, run in a fresh process after
    the warm-up, takes up no kernel signature the warm-up did not (its report's replays included: Example.warm_too).
    In a process of its own, where the kernels other tests compiled are not loaded."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", COMPILED_AFTER_WARM_UP], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "", "taken up after the warm-up:\n" + done.stdout


def _fake_cache(tmp_path, monkeypatch):
    """numba's cache folder in tmp_path, and every game's warm-up counted instead of compiled."""
    from numba.core import config

    import kernels.jit  # noqa: F401  (it sets the cache folder when first imported: before ours)
    from analyzer.game import Game

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    calls = []
    monkeypatch.setattr(Game, "warm_up", lambda self, group=None: calls.append((self.id, group)))
    return calls


def test_a_group_compiled_is_marked_ready_and_a_command_on_a_cold_cache_says_it_compiles_first(
        tmp_path, monkeypatch, capsys):
    from analyzer import warmup

    calls = _fake_cache(tmp_path, monkeypatch)
    assert warmup.expect("seafarers", "full game", "play") and capsys.readouterr().err == ""  # (not before its checks)
    warmup.say_expected()
    said = capsys.readouterr().err
    assert said.startswith("Compiling the Catan: Seafarers (full game) kernels first") and "min on 2 cores" in said
    warmup.warm_group("seafarers", None, talk=True)
    assert calls == [("seafarers", ""), ("seafarers", "full game")]
    said = capsys.readouterr().err
    assert "compiling the Catan: Seafarers (full game) kernels" in said and "Catan: Seafarers (full game) ready" in said
    assert warmup.is_ready("seafarers", "full game") and not warmup.is_ready("beacon", "")
    assert not warmup.expect("seafarers", "full game", "play")
    warmup.say_expected()
    warmup.warm_group("seafarers", "full game", talk=True)  # ready: loaded from the cache, without a word
    assert capsys.readouterr().err == ""


def test_a_second_warm_up_of_a_group_waits_for_the_first_and_does_not_mark_it_again(tmp_path, monkeypatch):
    """The demo's foreground warm-up of a game beside the background one: it waits for the lock, then finds the
    group ready (the background wrote it) instead of compiling it a second time."""
    import subprocess
    import sys
    import time

    from analyzer import warmup

    calls = _fake_cache(tmp_path, monkeypatch)
    stem = warmup._stem("regatta", "")
    holder = subprocess.Popen([sys.executable, "-c", f"""
import fcntl, sys, time
with open({str(stem.with_suffix('.lock'))!r}, 'a') as h:
    fcntl.flock(h, fcntl.LOCK_EX)
    print('locked', flush=True)
    time.sleep(1.5)
    open({str(stem.with_suffix('.done'))!r}, 'w').write('1\\n')
"""], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    t0 = time.perf_counter()
    warmup.warm_group("regatta", "")
    assert time.perf_counter() - t0 > 1.0 and holder.wait() == 0
    assert calls == [("regatta", "")] and stem.with_suffix(".done").read_text() == "1\n"


def test_a_command_on_a_cold_cache_says_it_compiles_first_and_only_until_it_has_run(tmp_path, monkeypatch, capsys):
    from analyzer import warmup
    from analyzer.command import _expect_compiling

    _fake_cache(tmp_path, monkeypatch)

    def simulate_cmd():  # as analyzer/beacon/cli.py names `tabletop beacon simulate`
        pass

    simulate_cmd.__module__ = "analyzer.beacon.cli"
    done = _expect_compiling(simulate_cmd)
    warmup.say_expected()  # (the runner, once the command's checks are done)
    assert capsys.readouterr().err.startswith("Compiling the Beacon Patrol kernels first")
    done()
    assert _expect_compiling(simulate_cmd) is None
    warmup.say_expected()
    assert capsys.readouterr().err == ""
    simulate_cmd.__module__ = "analyzer.cli"  # not a game's command: nothing to say
    assert _expect_compiling(simulate_cmd) is None


def test_a_command_refused_on_a_cold_cache_says_only_why(tmp_path, monkeypatch, capsys):
    """The line comes from the runner, after the command's checks: a refused command prints its error alone."""
    from analyzer.cli import main

    _fake_cache(tmp_path, monkeypatch)
    code = main(["regatta", "simulate", "--players", "9", "--games", "3"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error:") and "Compiling" not in err
