"""The options of every command and group of `tabletop` (issue 33), walked from the CLI itself, so a command
added to any registered game is covered without naming it here.

- `--help` shows no value type beside a flag: typer's rich help panel printed `--help <bool>` and
  `--progress --no-progress <bool>` (analyzer.command._Checked.get_params).
- An option that takes one value, given twice (`--games 10 --games 20`, `balance --heuristic pips --heuristic
  diverse`), is one line and exit 2: click kept the last and said nothing. Options that collect a list
  (--policies, --plan, --rule) may repeat.
- Every option a command lists is one it takes (`compare --help` once listed --precision and --no-per-game
  and refused them): every parameter is read by the command's function, and every option of every simulation
  command, given another valid value than its small example's, gets past all the command's checks to the
  runner and changes what is played (the jobs or the run options); --out and --json say where and how.
"""

import ast
import contextlib
import dataclasses
import inspect
import re
import sys
import textwrap
from pathlib import Path

import pytest
import typer

from analyzer.cli import app, main
from analyzer.command import CheckedCommand, CheckedGroup
from analyzer.games import games
from tests.support import one_line_error, run_cli


def _walk(command, path=()):
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _walk(sub, (*path, name))


TREE = list(_walk(typer.main.get_command(app)))
LEAVES = [(path, cmd) for path, cmd in TREE if not hasattr(cmd, "commands")]


def _options(command):
    return [p for p in command.params if p.param_type_name == "option"]


def _names(option) -> str:
    return "/".join(option.opts + option.secondary_opts)


SINGLE = [pytest.param(path, option, id=f"{' '.join(path)} {option.opts[0]}")
          for path, cmd in LEAVES for option in _options(cmd) if not option.multiple]
LISTS = [pytest.param(path, option, id=f"{' '.join(path)} {option.opts[0]}")
         for path, cmd in LEAVES for option in _options(cmd) if option.multiple]


def test_the_walk_finds_every_registered_command_and_each_has_the_checks():
    found = {path for path, _ in LEAVES}
    registered = {(g.id, e.command) for g in games().values() for e in g.experiments}
    assert registered <= found and ("games",) in found and ("beacon", "score") in found
    assert all(isinstance(cmd, CheckedGroup if hasattr(cmd, "commands") else CheckedCommand) for _, cmd in TREE)
    assert len(SINGLE) > 100 and len(LISTS) >= 5


@pytest.mark.parametrize("path,command", [pytest.param(p, c, id=" ".join(p) or "tabletop") for p, c in TREE])
def test_help_shows_no_type_beside_a_flag(path, command, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # wide enough that no option's name is wrapped
    code, out, err = run_cli([*path, "--help"], capsys)
    assert code == 0 and err == "", err
    assert "<bool>" not in out
    flags = [o for o in _options(command) if o.is_flag] + [command.get_help_option(command.context_class(command))]
    for flag in flags:
        for name in flag.opts + flag.secondary_opts:
            assert re.search(rf"{re.escape(name)}(?![\w-])", out), name  # listed ...
            assert not re.search(rf"{re.escape(name)}(?![\w-])\s+<", out), name  # ... and no <type> beside it
    for option in _options(command):  # the options that take a value still show one
        if not option.is_flag:
            assert re.search(rf"{re.escape(option.opts[0])}\s+\S", out), option.opts[0]


@pytest.mark.parametrize("path,option", SINGLE)
def test_an_option_given_twice_is_one_line(path, option, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # (were the check gone, `--out 1 --out 2` would write a folder 2)
    twice = [option.opts[0], option.opts[0]] if option.is_flag else [option.opts[0], "1", option.opts[0], "2"]
    code, _, err = run_cli([*path, *twice], capsys)
    assert one_line_error(code, err, f"{_names(option)} is given 2 times"), err


@pytest.mark.parametrize("argv,fragment", [
    (["beacon", "simulate", "--games=10", "--games", "20"], "--games is given 2 times: it takes one value"),
    (["beacon", "simulate", "--progress", "--no-progress"], "--progress/--no-progress is given 2 times: give one"),
    (["seafarers", "balance", "--heuristic", "pips", "--heuristic", "diverse"],
     "--heuristic is given 2 times: it takes one value, give it once; to compare heuristics by winning full games, "
     "use `tabletop seafarers tournament --entrants value:opening=pips,value:opening=diverse`"),
    (["seafarers", "dice", "--rolls", "10", "--seed", "1", "--rolls", "20", "--rolls", "30"], "--rolls is given 3"),
    (["games", "--json", "--json"], "--json is given 2 times: give it once"),
])
def test_repeats_in_other_forms(argv, fragment, capsys):
    code, _, err = run_cli(argv, capsys)
    assert one_line_error(code, err, fragment), err


@pytest.mark.parametrize("path,option", LISTS)
def test_an_option_that_collects_a_list_may_repeat(path, option, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli([*path, option.opts[0], "no-such-thing", option.opts[0], "nor-this"], capsys)
    assert code == 2 and "is given" not in err, err  # (refused for the values or a missing --out, not the repeat)


def test_help_still_wins_over_a_repeat(capsys):
    code, out, err = run_cli(["beacon", "simulate", "--games", "1", "--games", "2", "--help"], capsys)
    assert code == 0 and "Usage: tabletop beacon simulate" in out and err == ""


def test_a_repeat_is_refused_before_any_folder_is_written(tmp_path, capsys):
    example = games()["beacon"].experiment("simulate").example()
    out = tmp_path / "out"
    code, _, err = run_cli([*example.argv, "--seed", "4", "--out", str(out)], capsys)
    assert one_line_error(code, err, "--seed is given 2 times"), err
    assert not out.exists()


# --- every option a command lists is one it takes (issue 33: `compare --help` listed --precision and refused it)

def test_every_parameter_of_every_command_is_read_by_it():
    """A parameter the command's function never reads would be an option listed and ignored."""
    unread = {}
    for path, command in LEAVES:
        function = inspect.unwrap(command.callback)
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
        body = tree.body[0]
        read = {n.id for n in ast.walk(body) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        missing = [p for p in inspect.signature(function).parameters if p not in read]
        if missing:
            unread[" ".join(path)] = missing
    assert not unread


class _AtTheRunner(Exception):
    pass


# a value for each option that differs from the small example's (or the default): the first candidate not
# already in the command line; each is (tokens to add, options to take out of the example for it)
TILES = "tiles.csv"  # the packaged tile set less one tile, written by the test
CANDIDATES = {
    "--players": [(["--players", "3"], []), (["--players", "4"], [])],
    "--seed": [(["--seed", "11"], [])],
    "--games": [(["--games", "7"], [])],
    "--precision": [(["--precision", "9"], ["--games"])],
    "--min-games": [(["--precision", "9", "--min-games", "50"], ["--games"])],
    "--max-games": [(["--precision", "9", "--max-games", "5000"], ["--games"])],
    "--threads": [(["--threads", "1"], [])],
    "--dask-local": [(["--dask-local", "1"], [])],
    "--scheduler": [(["--scheduler", "tcp://127.0.0.1:8786"], [])],
    "--chunk-size": [(["--chunk-size", "3"], [])],
    "--checkpoint": [(["--checkpoint", "ck"], [])],
    "--per-game": [(["--no-per-game"], [])],
    "--long-run": [(["--long-run"], [])],
    "--progress": [(["--progress"], ["--no-progress"]), (["--no-progress"], [])],
    "--policy": [(["--policy", "random"], [])],
    "--policies": [(["--policies", "greedy,random"], ["--policies"])],
    "--expansions": [(["--expansions", "piers"], ["--expansions"])],
    "--tiles": [(["--tiles", TILES], [])],
    "--rule": [(["--rule", "solo_keep_on_empty_pile=true"], [])],
    "--scenario": [(["--scenario", "new-shores"], ["--scenario"]), (["--scenario", "four-islands"], ["--scenario"])],
    "--count": [(["--count", "9"], ["--count"])],
    "--max-clump": [(["--max-clump", "5"], [])],
    "--boards": [(["--boards", "3"], ["--boards"])],
    "--rolls": [(["--rolls", "30"], ["--rolls"])],
    "--heuristic": [(["--heuristic", "pips"], ["--heuristic"]), (["--heuristic", "diverse"], [])],
    "--sequences": [(["--sequences", "3"], ["--sequences"])],
    "--gold-policy": [(["--gold-policy", "ore"], [])],
    "--spend-to": [(["--spend-to", "-1"], [])],
    "--warships": [(["--warships", "5"], ["--warships"])],
    "--battles": [(["--battles", "3000"], ["--battles"])],
    "--sieges": [(["--sieges", "200"], [])],
    "--loss-model": [(["--loss-model", "warships"], [])],
    "--plan": [(["--plan", "ships-first"], ["--plan"])],
    "--raid-rule": [(["--raid-rule", "sole"], [])],
    "--max-rounds": [(["--max-rounds", "50"], [])],
    "--draft-seed": [(["--draft-seed", "5"], [])],
    "--fleet-blocks": [(["--fleet-blocks"], [])],
    "--rotate": [(["--rotate"], [])],
    "--team": [(["--team"], [])],
    "--bots": [(["--bots", "random"], ["--bots"])],
    "--rules": [(["--rules", "rules.toml"], [])],
    "--entrants": [(["--entrants", "value,random"], ["--entrants"])],
    "--scenarios": [(["--scenarios", "four-islands"], ["--scenarios"])],
    "--bot": [(["--bot", "random"], [])],
    "--base": [(["--base"], ["--no-base"]), (["--no-base"], [])],
    "--variant": [(["--variant", "rules.toml"], [])],
    "--ladder": [(["--ladder", "random,value"], ["--bot"])],
    "--budget": [(["--ladder", "random,value", "--budget", "1e9"], ["--bot"])],
}
SPECIAL = {  # where the generic value does not fit the command
    ("seafarers", "balance", "--players"): (["--players", "4"], ["--players"]),
    ("seafarers", "balance", "--by"): (["--by", "wins"], []),  # the by-wins options: the full games come first
    ("seafarers", "balance", "--games-per-board"): (["--by", "wins", "--games-per-board", "7"], []),
    ("seafarers", "balance", "--bot"): (["--by", "wins", "--bot", "random"], []),
    ("seafarers", "balance", "--rules"): (["--by", "wins", "--rules", "rules.toml"], []),
    ("seafarers", "balance", "--rule"): (["--by", "wins", "--rule", "domestic_trade=false"], []),
    ("seafarers", "balance", "--ladder"): (["--by", "wins", "--ladder", "value,random"], ["--bot"]),
    ("seafarers", "balance", "--budget"): (["--by", "wins", "--ladder", "value,random", "--budget", "1e9"], ["--bot"]),
    ("seafarers", "tournament", "--ladder"): (["--entrants", "value:opening=pips,value:opening=port", "--ladder",
                                                "planner,value"], ["--entrants"]),
    ("seafarers", "tournament", "--budget"): (["--entrants", "value:opening=pips,value:opening=port", "--ladder",
                                                "planner,value", "--budget", "1e9"], ["--entrants"]),
    ("seafarers", "play", "--boards"): (["--boards", "fixed"], []),
    ("seafarers", "play", "--rule"): (["--rule", "domestic_trade=false"], []),
    ("seafarers", "tournament", "--boards"): (["--boards", "fixed"], []),
    ("seafarers", "tournament", "--rule"): (["--rule", "domestic_trade=false"], []),
    ("seafarers", "seats", "--rule"): (["--rule", "domestic_trade=false"], []),
    ("seafarers", "dice", "--rolls"): (["--rolls", "70000"], ["--rolls"]),
    ("regatta", "compare", "--bots"): (["--bots", "greedy,blocker"], ["--bots"]),
    ("regatta", "simulate", "--team"): (["--players", "4", "--team"], []),
    ("meographic", "simulate", "--players"): (["--players", "3", "--bots", "greedy"], ["--players", "--bots"]),
    ("meographic", "compare", "--bots"): (["--bots", "greedy,planner"], ["--bots"]),
    ("regatta", "simulate", "--rule"): (["--rule", "reshuffle_at_once=false"], []),
    ("regatta", "compare", "--rule"): (["--rule", "reshuffle_at_once=false"], []),
    ("meographic", "simulate", "--rule"): (["--rule", "card_scores_once=false"], []),
    ("meographic", "compare", "--rule"): (["--rule", "card_scores_once=false"], []),
}
def _changed(name: str, old: str, new: str) -> str:
    text = (ROOT / "analyzer/seafarers/data/rules" / name).read_text("utf-8")
    assert old in text, f"{name} no longer has {old!r}: pick another number to change"
    return text.replace(old, new)


RULES_FILES = {  # a rules file that changes one number, for the commands with --rules or --variant
    "seafarers pirates": lambda: _changed("pirate_race.toml", "knight = 14", "knight = 13"),
    "seafarers play": lambda: _changed("full_game.toml", "turn_cap = 1000", "turn_cap = 900"),
    "seafarers balance": lambda: _changed("full_game.toml", "turn_cap = 1000", "turn_cap = 900"),
    "seafarers tournament": lambda: _changed("full_game.toml", "turn_cap = 1000", "turn_cap = 900"),
    "seafarers seats": lambda: _changed("full_game.toml", "turn_cap = 1000", "turn_cap = 900"),
    "regatta simulate": lambda: "[hand]\ndeal = 4\n",
    "regatta compare": lambda: "[hand]\ndeal = 4\n",
    "meographic simulate": lambda: FEWER_MISSIONS,
    "meographic compare": lambda: FEWER_MISSIONS,
}
FEWER_MISSIONS = '[[missions]]\nid = "only"\nshape = ["FF"]\npoints = 20\n'
WHERE_NOT_HOW = {"--out", "--json"}  # where the results go and how they are printed: not what is played
RUNS_BEFORE = {("seafarers", "fortress"): 1}  # runner calls played in full before the one compared (battles, sieges)
ROOT = Path(__file__).resolve().parents[1]


def _without(argv: list[str], names: list[str]) -> list[str]:
    kept, skip = [], False
    for i, token in enumerate(argv):
        if skip:
            skip = False
        elif token in names:
            skip = i + 1 < len(argv) and not argv[i + 1].startswith("--")
        else:
            kept.append(token)
    return kept


def _variant(path, option, argv):
    """argv with option set to another value than the example's or the default (the options the new tokens
    name are taken out first)."""
    assert option in CANDIDATES or (*path, option) in SPECIAL, f"add a value for {option} to CANDIDATES"
    given = argv.index(option) if option in argv else None
    now = [option, argv[given + 1]] if given is not None and given + 1 < len(argv) else [option, str(
        next(o.default for o in _options(dict(LEAVES)[tuple(path)]) if o.opts[0] == option))]
    tokens, drop = SPECIAL.get((*path, option)) or next(
        (t, d) for t, d in CANDIDATES[option] if t[:2] != now)
    return [*_without(argv, [*drop, *(t for t in tokens if t.startswith("--"))]), *tokens]


def _runner_calls(argv, path, capsys, monkeypatch):
    """(job identity, run options) of every runner call the command makes up to the one compared, which is
    stopped before a game is played; or the error it stopped on."""
    import analyzer.runner

    calls, real = [], analyzer.runner._backend

    def backend(options):
        job = sys._getframe(1).f_locals["job"]  # (the caller is run_job: what it was asked to play)
        calls.append((job.identity(), dataclasses.asdict(options)))
        if len(calls) > RUNS_BEFORE.get(tuple(path), 0):
            raise _AtTheRunner
        return real(options)

    monkeypatch.setattr(analyzer.runner, "_backend", backend)
    # every job opens its own backend, so each call above sees the job it was asked for (run_arms shares one)
    monkeypatch.setattr(analyzer.runner, "backend_for", lambda options: contextlib.nullcontext())
    try:
        code = main(argv)
    except _AtTheRunner:
        return calls
    return f"exit {code}: {capsys.readouterr().err.strip()}"


RUN_OPTIONS = [pytest.param(e, o.opts[0], id=f"{g.id} {e.command} {o.opts[0]}")
               for g in games().values() for e in g.experiments
               for o in _options(dict(LEAVES)[(g.id, e.command)]) if o.opts[0] not in WHERE_NOT_HOW]


@pytest.mark.parametrize("experiment,option", RUN_OPTIONS)
def test_every_option_listed_is_taken_and_changes_what_is_played(experiment, option, tmp_path, capsys, monkeypatch):
    """Each option of each simulation command, given a valid value other than the example's, is accepted (the
    command gets past every check to its runner) and reaches what is played: the jobs or the run options differ
    from the example's. Stopped at the runner, so no game is played."""
    monkeypatch.chdir(tmp_path)
    example = experiment.example()
    path = example.argv[:2]
    text = (ROOT / "analyzer/beacon/data/tiles_default.csv").read_text("utf-8")
    (tmp_path / TILES).write_text(text.rstrip("\n").rsplit("\n", 1)[0] + "\n", "utf-8")
    if " ".join(path) in RULES_FILES:
        (tmp_path / "rules.toml").write_text(RULES_FILES[" ".join(path)](), "utf-8")
    out = (lambda name: ["--out", name]) if example.writes_results else (lambda name: [])
    variant = _variant(path, option, example.argv)
    base = _runner_calls([*example.argv, *out("base")], path, capsys, monkeypatch)
    assert isinstance(base, list), base
    changed = _runner_calls([*variant, *out("variant")], path, capsys, monkeypatch)
    assert isinstance(changed, list), f"{' '.join(variant[2:])}: {changed}"
    assert changed != base, f"{' '.join(variant[2:])} played the same as the example"
