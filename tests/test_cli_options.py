"""The options of every command and group of `tabletop` (issue 33), walked from the CLI itself, so a command
added to any registered game is covered without naming it here.

- `--help` shows no value type beside a flag: typer's rich help panel printed `--help <bool>` and
  `--progress --no-progress <bool>` (analyzer.command._Checked.get_params).
- An option that takes one value, given twice (`--games 10 --games 20`, `balance --heuristic pips --heuristic
  diverse`), is one line and exit 2: click kept the last and said nothing. Options that collect a list
  (--policies, --plan, --rule) may repeat.
"""

import re

import pytest
import typer

from analyzer.cli import app
from analyzer.command import CheckedCommand, CheckedGroup
from analyzer.game import resolve
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
    (["seafarers", "balance", "--heuristic", "pips", "--heuristic", "diverse"], "--heuristic is given 2 times"),
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
    example = resolve(games()["beacon"].experiment("simulate").example)()
    out = tmp_path / "out"
    code, _, err = run_cli([*example.argv, "--seed", "4", "--out", str(out)], capsys)
    assert one_line_error(code, err, "--seed is given 2 times"), err
    assert not out.exists()
