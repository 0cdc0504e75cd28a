"""`tabletop seafarers versus-catanatron`: our full-game bots against catanatron's players inside catanatron's own
engine, on its base map and rules (analyzer/seafarers/catanatron_bridge.py, docs/seafarers/catanatron.md).

    result = play_versus(["value"], ["R", "W"], games=100, seed=0, players=2)
    result.summary["pairings"][0]["p_win"], result.games      # per pairing; one row per game

A pairing is one of our bots against one of catanatron's: 1v1 (players=2), or ours in one seat against catanatron's
bot in every other seat. Game g of a pairing seats ours at seat g mod players (seats rotated), on catanatron's map
of seed (seed, g // players): the games of one rotation share their map. Catanatron's dice and its bots' draws come
from Python's `random`, which catanatron seeds per game; our bot's draws from its own stream (seed, game, seat). Every
player chooses among the actions in one canonical order (canonical_order), so a seed gives the same games in every
process.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

import polars as pl

from analyzer.errors import UserError
from analyzer.stats import mean_ci, wilson_ci

__all__ = ["THEIRS", "VersusResult", "canonical_order", "catanatron_seed", "check_versus", "play_versus",
           "seat_players"]

MAX_GAMES = 100_000
# catanatron's players by the short codes of its command line: (class, what it does). AB and F are in
# catanatron_experimental, which is not on the package registry (catanatron 3.2.1 ships R, W and VP).
THEIRS = {
    "R": ("RandomPlayer", "uniform over its playable actions"),
    "W": ("WeightedRandomPlayer",
          "random, weighting a city 10,000, a settlement 1,000 and a development card 100 to every other action's 1"),
    "VP": ("VictoryPointPlayer", "the action that most raises its VP at once, random among ties"),
    "AB": ("AlphaBetaPlayer", "alpha-beta search over catanatron's value function (catanatron_experimental)"),
    "F": ("ValueFunctionPlayer", "one ply on catanatron's hand-tuned value function (catanatron_experimental)"),
}
EXPERIMENTAL = ("AB", "F")


@dataclass(frozen=True)
class VersusResult:
    summary: dict
    games: pl.DataFrame  # one row per pairing and game


def _their_class(code: str):
    """catanatron's player class of a THEIRS code; one UserError line where its package is missing."""
    if code in EXPERIMENTAL:
        try:
            from catanatron_experimental.machine_learning.players.minimax import AlphaBetaPlayer
            from catanatron_experimental.machine_learning.players.value import ValueFunctionPlayer
        except ImportError:
            raise UserError(f"--theirs {code}: catanatron's {THEIRS[code][0]} is in catanatron_experimental, which "
                            "is not installed (it is not on the package registry; catanatron 3.2.1 itself ships R, W "
                            "and VP)") from None
        return {"AB": AlphaBetaPlayer, "F": ValueFunctionPlayer}[code]
    try:
        from catanatron.models.player import RandomPlayer
        from catanatron.players.search import VictoryPointPlayer
        from catanatron.players.weighted_random import WeightedRandomPlayer
    except ImportError:
        raise UserError("versus-catanatron needs the optional extra: pip install -e '.[catanatron]' "
                        "(catanatron 3.2.1)") from None
    return {"R": RandomPlayer, "W": WeightedRandomPlayer, "VP": VictoryPointPlayer}[code]


def check_versus(ours, theirs, games: int, seed: int, players: int) -> tuple[list, list[str]]:
    """The arms of our bots and catanatron's codes, checked (one UserError line each) before any game."""
    from analyzer.params import check_seed
    from analyzer.seafarers.bots import parse_bot

    if players not in (2, 3, 4):
        raise UserError(f"--players must be 2, 3 or 4 (catanatron's base map), not {players}")
    if not 1 <= games <= MAX_GAMES:
        raise UserError(f"--games must be from 1 to {MAX_GAMES:,}")
    check_seed(seed)
    if not ours:
        raise UserError("--ours names no bot")
    if not theirs:
        raise UserError("--theirs names no catanatron player")
    arms = [parse_bot(text) for text in ours]
    for code in theirs:
        if code not in THEIRS:
            raise UserError(f"--theirs: unknown catanatron player {code!r}; known: {', '.join(THEIRS)}")
    _their_class("R")  # catanatron itself
    for code in theirs:
        _their_class(code)
    return arms, list(theirs)


def catanatron_seed(seed: int, block: int) -> int:
    """catanatron's Game seed of rotation `block` (never 0: catanatron draws a random seed for a 0)."""
    return (seed * 1_000_003 + block) % (2 ** 62) + 1


def seat_players(game, players) -> None:
    """Seat the players in this order: catanatron's State seats them in a random order of its own."""
    from catanatron.models.actions import generate_playable_actions

    state = game.state
    state.players = list(players)
    state.colors = tuple(p.color for p in players)
    state.color_to_index = {color: i for i, color in enumerate(state.colors)}
    state.playable_actions = generate_playable_actions(state)


def canonical_order(action) -> tuple[str, str]:
    """A sort key of catanatron's actions that no process changes: catanatron lists some of them from sets of enums
    and strings, whose order follows Python's string hashing (a new one each process), and its random players pick
    by position, so a seed alone would not give the same game twice."""
    return action.action_type.value, repr(action.value)


def _in_canonical_order(player, game, actions):
    """catanatron's decide_fn: every player chooses among the actions in canonical_order."""
    return player.decide(game, sorted(actions, key=canonical_order))


def _one_game(ours_bot: str, their_class, players: int, seed: int, g: int):
    from catanatron import Color, Game
    from catanatron.models.enums import ActionType
    from catanatron.state_functions import get_actual_victory_points

    from analyzer.seafarers.catanatron_bridge import OursPlayer

    colors = (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)[:players]
    our_seat = g % players
    lineup = [OursPlayer(color, ours_bot, seed=seed, stream_key=players * g + k) if k == our_seat else
              their_class(color) for k, color in enumerate(colors)]
    game = Game(lineup, seed=catanatron_seed(seed, g // players))
    seat_players(game, lineup)
    winner = game.play(decide_fn=_in_canonical_order)
    state = game.state
    vps = [get_actual_victory_points(state, c) for c in colors]
    row = {"game": g, "catanatron_seed": catanatron_seed(seed, g // players), "our_seat": our_seat + 1,
           "winner_seat": None if winner is None else colors.index(winner) + 1, "won": winner == colors[our_seat],
           "capped": winner is None, "turns": state.num_turns,
           "rolls": sum(a.action_type == ActionType.ROLL for a in state.actions),
           "our_vp": vps[our_seat], "best_rival_vp": max(v for k, v in enumerate(vps) if k != our_seat)}
    return row, lineup[our_seat].counts


def _pairing(bot_label: str, code: str, rows: list[dict], counts: Counter, players: int) -> dict:
    n = len(rows)
    wins = sum(r["won"] for r in rows)
    theirs_wins = sum(not r["won"] and not r["capped"] for r in rows)
    by_seat = []
    for seat in range(1, players + 1):
        at = [r for r in rows if r["our_seat"] == seat]
        k = sum(r["won"] for r in at)
        by_seat.append({"seat": seat, "games": len(at), "wins": k, "p_win": k / len(at) if at else None,
                        "ci95": list(wilson_ci(k, len(at))) if at else [None, None]})
    chose = counts["decisions"] - counts["forced"]
    return {"ours": bot_label, "theirs": code, "games": n, "wins": wins, "p_win": wins / n,
            "ci95": list(wilson_ci(wins, n)), "fair_share": 1 / players, "theirs_wins": theirs_wins,
            "capped": sum(r["capped"] for r in rows), "by_seat": by_seat,
            "turns": mean_ci([r["turns"] for r in rows], support=(0, None)),
            "rolls": mean_ci([r["rolls"] for r in rows], support=(0, None)),
            "our_vp": mean_ci([r["our_vp"] for r in rows], support=(0, None)),
            "bridge": {"decisions": counts["decisions"], "forced": counts["forced"], "chosen": chose,
                       "first_choice": counts["first_choice"],
                       "fallbacks": {k.removeprefix("fallback "): v for k, v in sorted(counts.items())
                                     if k.startswith("fallback ")},
                       "ours_only": {k.removeprefix("ours only "): v for k, v in sorted(counts.items())
                                     if k.startswith("ours only ")},
                       "theirs_only": {k.removeprefix("theirs only "): v for k, v in sorted(counts.items())
                                       if k.startswith("theirs only ")},
                       "unmapped": counts["unmapped"]}}


def play_versus(ours, theirs, games: int, seed: int = 0, players: int = 2, command: str = "",
                progress=None) -> VersusResult:
    """Every pairing of our bots (`ours`: bot specs) with catanatron's players (`theirs`: codes of THEIRS), `games`
    games each (the module docstring); `progress(done, total)` after each game."""
    import catanatron

    from analyzer.provenance import provenance
    from analyzer.seafarers.bots import bot_name
    from analyzer.seafarers.catanatron_bridge import BRIDGE_RULES

    arms, codes = check_versus(ours, theirs, games, seed, players)
    start = time.perf_counter()
    pairings, table = [], []
    total, done = len(arms) * len(codes) * games, 0
    for arm in arms:
        label = bot_name(arm)
        for code in codes:
            their_class = _their_class(code)
            rows, counts = [], Counter()
            for g in range(games):
                row, c = _one_game(arm.label, their_class, players, seed, g)
                rows.append(row)
                counts.update(c)
                done += 1
                if progress is not None:
                    progress(done, total)
            pairings.append(_pairing(label, code, rows, counts, players))
            table += [{"ours": label, "theirs": code, **r} for r in rows]
    wall = time.perf_counter() - start
    assumptions = [
        "catanatron's engine and rules decide every game (docs/seafarers/catanatron.md lists where they differ from "
        "ours): its base map drawn from its seed, no domestic trade, a 7 discards half of a hand of more than 7 at "
        "random, 10 VP to win checked after every action, at most 1,000 turns (a game still running then has no "
        "winner)",
        "our bot sees only what its seat sees: its own hand and cards; the others' card counts, played knights and "
        "buildings; hidden hands and the deck are filled neutrally from their public counts "
        "(analyzer/seafarers/catanatron_bridge.py)",
        f"our bot plays by our rules switched to catanatron's where our rules data can ({', '.join(BRIDGE_RULES)}); "
        "where it chooses an action catanatron does not offer, its best-scored action that catanatron offers is "
        "played (counted as a fallback)",
    ]
    summary = {"players": players, "games": games, "ours": [bot_name(a) for a in arms], "theirs": codes,
               "theirs_about": {c: f"{THEIRS[c][0]}: {THEIRS[c][1]}" for c in codes},
               "catanatron": {"version": getattr(catanatron, "__version__", None) or _version(), "map": "BASE",
                              "vps_to_win": 10, "discard_limit": 7, "turns_limit": 1000},
               "seating": "game g: ours at seat g mod players, catanatron's map of seed (seed, g div players)",
               "pairings": pairings, "wall_seconds": wall, "games_per_second": total / wall if wall > 0 else None,
               **provenance("seafarers", seed, command, assumptions)}
    return VersusResult(summary, pl.DataFrame(table))


def _version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("catanatron")
    except PackageNotFoundError:
        return None
