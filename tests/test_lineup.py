"""analyzer/lineup.py: one reading of a list of arms (`name:key=value,...`), one for every seat or one per seat,
seat rotations, for every game: the grammar, the Seafarers `play --bots` form that once split at every comma, and
each game's one-line errors through its real command."""

import json

import pytest

from analyzer.beacon.policies import POLICIES
from analyzer.errors import UserError
from analyzer.lineup import one_arm, one_in_each_seat, parse_arm, per_seat, rotations, split_arms
from tests.support import one_line_error, run_cli

# --------------------------------------------------------------------------- the grammar


@pytest.mark.parametrize("values, expected", [
    ("random,greedy", ["random", "greedy"]),
    (["greedy", "lookahead:hole=2.5,keep=1"], ["greedy", "lookahead:hole=2.5,keep=1"]),
    ("greedy,lookahead:hole=2.5,keep=1,random", ["greedy", "lookahead:hole=2.5,keep=1", "random"]),
    (["random,greedy", "rollout:n=8"], ["random", "greedy", "rollout:n=8"]),  # each list item a lineup
    ("lookahead:hole=2.5, keep=1 ,oracle", ["lookahead:hole=2.5, keep=1", "oracle"]),
    # issue 48: a comma before key= continues the bot, a comma before a name starts the next one
    ("value:opening=port,gold=2,value,value", ["value:opening=port,gold=2", "value", "value"]),
    ("rollout:playouts=4,candidates=3,horizon=8,value", ["rollout:playouts=4,candidates=3,horizon=8", "value"]),
    ("greedy,width=2,random", ["greedy:width=2", "random"]),  # (the registry then refuses width for greedy)
    ("value", ["value"]),
])
def test_a_comma_starts_an_arm_unless_a_parameter_follows_it(values, expected):
    assert split_arms(values, "--bots", "bot") == expected


@pytest.mark.parametrize("values, message", [
    ("value,value,", "--bots: empty bot name in 'value,value,' (a comma with no name on one side)"),
    (",value", "--bots: empty bot name in ',value'"),
    ("value,,value", "--bots: empty bot name in 'value,,value'"),
    ("", "--bots: empty bot name in ''"),
    (["value", " "], "--bots: empty bot name in ' '"),
    ([], "--bots: give at least one bot"),
    (3, "--bots must be a text 'a,b' or a list of texts, got int 3"),
    (["value", 3], "--bots must be a text 'a,b' or a list of texts, got list"),
])
def test_a_broken_list_is_one_line_naming_the_problem(values, message):
    with pytest.raises(UserError) as caught:
        split_arms(values, "--bots", "bot")
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


def test_an_unknown_name_says_the_nearest_known_one():
    with pytest.raises(UserError, match=r"^unknown policy 'greedz' \(did you mean 'greedy'\?\); choose from random"):
        parse_arm("greedz", "policy", POLICIES.specs)
    with pytest.raises(UserError) as caught:  # nothing near: the list alone
        parse_arm("mcts", "policy", POLICIES.specs)
    assert "did you mean" not in str(caught.value) and "choose from random" in str(caught.value)


def test_one_for_every_seat_or_one_per_seat():
    assert per_seat(["a"], 3, "--bots", "bot") == ["a", "a", "a"]
    assert per_seat(["a", "b", "c"], 3, "--bots", "bot") == ["a", "b", "c"]
    with pytest.raises(UserError, match="^--bots names 2 bots for 3 players: give one for every seat or one per "):
        per_seat(["a", "b"], 3, "--bots", "bot")
    with pytest.raises(UserError, match="^--bots names 2 bots for 1 player:"):
        per_seat(["a", "b"], 1, "--bots", "bot")
    assert one_arm("value:opening=pips,gold=2", "--bot", "bot") == "value:opening=pips,gold=2"
    with pytest.raises(UserError, match=r"^--bot takes one bot, which plays every seat, not 2 \('value,random'\); "
                                        "to compare bots use X$"):
        one_arm("value,random", "--bot", "bot", "X")


def test_rotations_seat_every_arm_in_every_seat_once():
    assert rotations(["a", "b", "c"]) == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    assert rotations(["a", "b", "c"], rotate=False) == [["a", "b", "c"]]
    assert one_in_each_seat("a", "b", 3) == [["a", "b", "b"], ["b", "a", "b"], ["b", "b", "a"]]
    for plan in (rotations(list("abcd")), one_in_each_seat("a", "b", 4)):
        assert all(sorted(row[seat] for row in plan) == sorted(plan[0]) for seat in range(len(plan[0])))


# --------------------------------------------------------------------------- through the commands


@pytest.mark.parametrize("bots, seated", [
    ("value:opening=port,gold=2,value,value", ["value:opening=port,gold=2", "value", "value"]),
    # play --help advertises rollout[:playouts=4,...]: play takes it
    ("rollout:playouts=2,candidates=2,horizon=4,value,value",
     ["rollout:playouts=2,candidates=2,horizon=4", "value", "value"]),
])
def test_seafarers_play_reads_its_bots_as_tournament_does(tmp_path, capsys, bots, seated):
    """Issue 48's case: `play --bots value:opening=port,gold=2,value,value --players 3` said "names 4 bots for 3
    players" while `tournament` read the same text as 3 bots."""
    from analyzer.seafarers.full_game import parse_bot

    out = tmp_path / "play"
    code, _, err = run_cli(["seafarers", "play", "--scenario", "new-shores", "--players", "3", "--bots", bots,
                            "--games", "2", "--threads", "1", "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text())
    assert [b["spec"] for b in summary["bots"]] == [parse_bot(b).label for b in seated]


@pytest.mark.parametrize("argv, message", [
    (["beacon", "compare", "--policies", "random,,greedy", "--games", "4"], "--policies: empty policy name in"),
    (["beacon", "compare", "--policies", "random,greedz", "--games", "4"],
     "unknown policy 'greedz' (did you mean 'greedy'?)"),
    (["seafarers", "play", "--scenario", "new-shores", "--players", "3", "--bots", "value,value,value,"],
     "--bots: empty bot name in 'value,value,value,'"),
    (["seafarers", "play", "--scenario", "new-shores", "--players", "3", "--bots", "value,value"],
     "--bots names 2 bots for 3 players: give one for every seat or one per seat"),
    (["seafarers", "play", "--scenario", "new-shores", "--bots", "valeu"],
     "unknown bot 'valeu' (did you mean 'value'?)"),
    (["seafarers", "tournament", "--scenario", "new-shores", "--entrants", "value,"],
     "--entrants: empty bot name in 'value,'"),
    (["seafarers", "seats", "--bot", "value,random"], "--bot takes one bot, which plays every seat, not 2"),
    (["seafarers", "balance", "--scenario", "new-shores", "--by", "wins", "--bot", "value,random"],
     "--bot takes one bot, which plays every seat, not 2"),
    (["regatta", "simulate", "--players", "3", "--bots", "greedy,random"],
     "--bots names 2 bots for 3 players: give one for every seat or one per seat"),
    (["regatta", "compare", "--bots", "greedy,"], "--bots: empty bot name in 'greedy,'"),
    (["regatta", "simulate", "--bots", "grredy"], "unknown bot 'grredy' (did you mean 'greedy'?)"),
    (["meographic", "simulate", "--players", "2", "--bots", "greedy,planner,random"],
     "--bots names 3 bots for 2 players: give one for every seat or one per seat"),
    (["meographic", "compare", "--bots", ",planner"], "--bots: empty bot name in ',planner'"),
    (["meographic", "simulate", "--bots", "plannr"], "unknown bot 'plannr' (did you mean 'planner'?)"),
])
def test_every_games_lineup_errors_are_one_line(tmp_path, capsys, argv, message):
    out = tmp_path / "out"
    code, _, err = run_cli([*argv, "--no-progress", "--out", str(out)], capsys)
    assert one_line_error(code, err, message), err
    assert not out.exists()


def test_the_seafarers_api_takes_the_bots_as_text_or_a_list():
    from analyzer import seafarers

    for bots in ("value:opening=port,gold=2,value,value", ["value:opening=port,gold=2", "value", "value"]):
        with pytest.raises(UserError, match="^--bots names 3 bots for 4 players"):  # (read as 3, not 4 or letters)
            seafarers.run_play("new-shores", 4, bots)
