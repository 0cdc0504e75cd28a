"""Full Seafarers games against catanatron, side by side (issue 28), printed as figures (no test asserts a time).

    .venv/bin/python scripts/bench.py --catan                  # about 3 minutes on one core
    .venv/bin/python scripts/bench_catan.py --catan-games 100 --games 5000

1. catanatron (the pure-Python Catan engine on the package index; `.venv/bin/pip install -e '.[bench]'`): 4
   RandomPlayers on its base map (a random board each game), games/s, mean turns, rolls and actions, games at its
   turn limit.
2. ours: `random` bots, 4 players, scenario `base`, random boards, without domestic trade as catanatron's random
   players, games/s through the path the CLI's runner takes (analyzer/seafarers/full_game.py: play_job,
   play_range(job.spec), play(0, out)); ours / catanatron against issue 28's aim of 100x; beside it the printed
   board every game (--boards fixed) and the default rules (domestic trade on).
3. ours: `value` bots (aim: 2,000 games/s; with and without domestic trade) and `weighted` bots on New Shores, 4
   players, random boards.
4. every scenario: random bots (against catanatron's rate) and value bots (against 2,000 games/s), issue 29.
5. kernel against the pure-Python reference (analyzer/seafarers/full_reference.py) per playable scenario: random
   bots, 4 players, the very same games (checked: the same winner, turns and rolls); decisions a game and the
   kernel's time a decision.

Per core: one thread, per second of that thread's CPU time, after compilation; the best of `--rounds` runs, ours and
catanatron alternating so that load drift hits both. The reference is slow (0.2 to 8 games a second): one run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from importlib import metadata
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # one core (the kernel runs in the calling thread anyway)

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analyzer.rng_reference import Stream  # noqa: E402
from analyzer.seafarers import full_reference as R  # noqa: E402
from analyzer.seafarers.boards import deal_plan, generate_boards  # noqa: E402
from analyzer.seafarers.bots import parse_bot  # noqa: E402
from analyzer.seafarers.full_game import PLAY_SCENARIOS, play_job, play_range  # noqa: E402
from analyzer.seafarers.full_rules import load_rules, rules_text  # noqa: E402
from analyzer.seafarers.scenarios import load_scenario  # noqa: E402
from kernels.catan import game as kg  # noqa: E402
from kernels.rng import PURPOSE_POLICY  # noqa: E402

AIM_VS_CATANATRON = 100  # issue 28: random bots, 4 players, base map: at least 100x catanatron's games/s
AIM_VALUE = 2_000  # issue 28: value bots, New Shores, 4 players: games/s per core
PLAYERS = 4
SEED = 1
INSTALL = "catanatron is not installed: `.venv/bin/pip install -e '.[bench]'` adds it (a bench-only extra)"


def best_of(timers: dict, rounds: int) -> dict:
    """Each timer's best games/s over `rounds` runs, the timers taking turns within each round."""
    best = dict.fromkeys(timers, 0.0)
    for _ in range(rounds):
        for name, timer in timers.items():
            best[name] = max(best[name], timer())
    return best


def catanatron_timer(games: int):
    """(timer, stats) for `games` catanatron games of 4 RandomPlayers, or None when catanatron is not installed.
    stats fills in on each run: mean turns (its count), mean rolls, games stopped at its turn limit."""
    try:
        from catanatron import Color, Game, RandomPlayer
        from catanatron.game import TURNS_LIMIT
        from catanatron.models.enums import ActionType
    except ImportError:
        return None
    colors = list(Color)[:PLAYERS]
    stats = {"turn_limit": TURNS_LIMIT, "version": metadata.version("catanatron")}

    def rate() -> float:
        played = []
        t0 = time.thread_time()
        for g in range(games):
            game = Game([RandomPlayer(c) for c in colors], seed=g + 1)  # its seed 0 means "draw one"
            game.play()
            played.append(game)
        seconds = time.thread_time() - t0
        stats["turns"] = float(np.mean([game.state.num_turns for game in played]))
        stats["rolls"] = float(np.mean([sum(a.action_type == ActionType.ROLL for a in game.state.actions)
                                        for game in played]))
        stats["capped"] = sum(game.winning_color() is None for game in played)
        stats["actions"] = float(np.mean([len(game.state.actions) for game in played]))
        return games / seconds
    return rate, stats


NO_DOMESTIC = ["domestic_trade=false"]  # catanatron's bots trade only with the bank and at harbours


def ours_timer(scenario: str, bot: str, games: int, boards: str = "random", rule=()):
    """(timer, out) for games 0 .. games - 1 of SEED through the runner's job path; out holds their result columns."""
    job = play_job(scenario, PLAYERS, [parse_bot(bot)] * PLAYERS, SEED, boards, rules_text(None)[0], rule)
    play = play_range(job.spec)
    play(0, np.zeros((job.n_cols, 0), job.dtype))  # the runner's warm-up: compile / load the numba cache
    play(0, np.zeros((job.n_cols, 2), job.dtype))  # and the per-game board path
    out = np.zeros((job.n_cols, games), job.dtype)

    def rate() -> float:
        t0 = time.thread_time()
        play(0, out)
        return games / (time.thread_time() - t0)
    return rate, out


def summary(out: np.ndarray) -> str:
    return (f"{out[kg.R_TURNS].mean():6.1f} turns {out[kg.R_ROLLS].mean():6.1f} rolls, "
            f"capped {out[kg.R_CAPPED].mean():.1%}")


def reference_games(scenario: str, games: int) -> tuple[float, list[tuple[int, int, int]], int]:
    """(games/s of thread CPU time, (winner, turns, rolls) per game, decisions): the pure-Python engine plays games
    0 .. games - 1 of SEED with random bots on the boards the kernel's job deals them (as
    tests/seafarers/test_full_kernel.py drives both engines)."""
    s, rules = load_scenario(scenario, PLAYERS), load_rules()
    plan = deal_plan(s)
    results, decisions = [], 0
    t0 = time.thread_time()
    for g in range(games):
        dealt = generate_boards(plan, 1, SEED, first=g)
        table = R.game_table(s, rules, dealt.terrain[0], dealt.number[0], dealt.harbour[0])
        state = R.init(table, SEED, g)
        streams = [Stream(SEED, kg.MAX_SEATS * g + p, PURPOSE_POLICY) for p in range(PLAYERS)]
        while not R.terminal(state):
            actions = R.legal(table, state)
            R.step(table, state, actions[R.decide_random(actions, streams[state.actor])])
            decisions += 1
        r = R.result(table, state)
        results.append((r["winner"], r["turns"], r["rolls"]))
    return games / (time.thread_time() - t0), results, decisions


def versus_catanatron(catan_games: int, games: int, rounds: int) -> float | None:
    """Prints the comparison; returns catanatron's games/s (None: not installed)."""
    print(f"Random bots, {PLAYERS} players, base map, a random board each game (games/s on one core, best of {rounds} "
          "alternating runs)")
    ours, out = ours_timer("base", "random", games, rule=NO_DOMESTIC)
    domestic, out_domestic = ours_timer("base", "random", games)
    timers = {"ours": ours, "fixed": ours_timer("base", "random", games, boards="fixed", rule=NO_DOMESTIC)[0],
              "domestic": domestic}
    theirs = catanatron_timer(catan_games)
    if theirs is not None:
        timers["catanatron"] = theirs[0]
    best = best_of(timers, rounds)
    if theirs is None:
        print(f"  {INSTALL}")
    else:
        stats = theirs[1]
        print(f"  catanatron {best['catanatron']:10,.1f} games/s  {stats['turns']:6.1f} turns {stats['rolls']:6.1f} "
              f"rolls {stats['actions']:6.0f} actions, {stats['capped']} of {catan_games} games at its "
              f"turn limit ({stats['turn_limit']} turns)")
    print(f"  ours       {best['ours']:10,.1f} games/s  {summary(out)} ({games:,} games; --rule domestic_trade=false, "
          "as catanatron)")
    print(f"  ours on the printed board every game (--boards fixed): {best['fixed']:,.1f} games/s")
    print(f"  ours with domestic trade (the default): {best['domestic']:,.1f} games/s  {summary(out_domestic)}: random "
          "bots offer and answer at random, so a game takes more decisions")
    if theirs is not None:
        ratio = best["ours"] / best["catanatron"]
        print(f"  ours / catanatron: {ratio:,.1f}x (aim {AIM_VS_CATANATRON}x: "
              f"{'met' if ratio >= AIM_VS_CATANATRON else 'not met'})")
        print(f"  The games differ: catanatron {stats['version']} counts its 2(P-1) set-up passes as turns and stops "
              f"at {stats['turn_limit']} of them (ours: {load_rules().turn_cap} turns, flagged capped); it discards "
              "half a hand at random for the player (ours: the bot picks the cards); its random players never trade "
              "with each other (ours here neither: --rule domestic_trade=false).")
    return best.get("catanatron")


def value_bots(games: int, rounds: int) -> None:
    print(f"\nNew Shores, {PLAYERS} players, random boards (games/s on one core, best of {rounds} alternating runs)")
    timers, outs = {}, {}
    for bot, rule in (("value", ()), ("value", NO_DOMESTIC), ("weighted", ())):
        name = bot + (" (--rule domestic_trade=false)" if rule else "")
        timers[name], outs[name] = ours_timer("new-shores", bot, games, rule=rule)
    best = best_of(timers, rounds)
    for name, rate in best.items():
        aim = f"  (aim {AIM_VALUE:,}: {'met' if rate >= AIM_VALUE else 'not met'})" if name.startswith("value") else ""
        print(f"  {name:40} {rate:10,.1f} games/s  {summary(outs[name])}{aim}")


def per_scenario(games: int, value_games: int, rounds: int, catanatron: float | None) -> None:
    """Issue 28's two speed aims on every scenario (issue 29): random bots (no domestic trade, as catanatron) against
    catanatron's base-game rate, value bots with domestic trade (the default) against 2,000 games/s."""
    print(f"\nEvery scenario, {PLAYERS} players, random boards (the Pirate Islands: "
          f"its printed board, harbours shuffled); games/s on one core, best of {rounds} alternating runs")
    for scenario in PLAY_SCENARIOS:
        random_timer, random_out = ours_timer(scenario, "random", games, rule=NO_DOMESTIC)
        value_timer, value_out = ours_timer(scenario, "value", value_games)
        best = best_of({"random": random_timer, "value": value_timer}, rounds)
        versus = f" = {best['random'] / catanatron:5.0f}x catanatron" if catanatron else ""
        print(f"  {scenario:20} random {best['random']:8,.1f}{versus} (aim {AIM_VS_CATANATRON}x); value "
              f"{best['value']:7,.1f} (aim {AIM_VALUE:,}: {'met' if best['value'] >= AIM_VALUE else 'not met'}); "
              f"value games {value_out[kg.R_ROLLS].mean():4.0f} rolls, random {random_out[kg.R_ROLLS].mean():4.0f}")


def kernel_vs_reference(games: int, ref_games: int, rounds: int) -> None:
    """The ratio is taken on the very same games (the reference's few, the kernel's best of `rounds` on them):
    random-bot games on New Shores last 250 to 750 rolls (5th to 95th percentile): a ratio over others is noise."""
    print(f"\nKernel against the pure-Python reference, random bots, {PLAYERS} players, random boards (kernel: best of "
          f"{rounds} runs of {games:,} games, and of the reference's {ref_games} games; reference: one run)")
    for scenario in PLAY_SCENARIOS:
        timer, out = ours_timer(scenario, "random", games)
        same_timer, same_out = ours_timer(scenario, "random", ref_games)
        best = best_of({"kernel": timer, "same": same_timer}, rounds)
        reference, results, decisions = reference_games(scenario, ref_games)
        same = sum(tuple(int(v) for v in same_out[[kg.R_WINNER, kg.R_TURNS, kg.R_ROLLS], g]) == r
                   for g, r in enumerate(results))
        print(f"  {scenario:20} kernel {best['kernel']:7,.1f} games/s ({out[kg.R_ROLLS].mean():3.0f} rolls a game); "
              f"on the reference's games {best['same']:7,.1f}, reference {reference:5.2f}: ratio "
              f"{best['same'] / reference:5,.0f}x (the same result in {same} of {ref_games}); "
              f"{decisions / ref_games:5.0f} decisions a game, {1e6 * ref_games / (best['same'] * decisions):5.2f} "
              "us a decision in the kernel, its board set-up included")


def count(text: str) -> int:
    """A count of games or runs: a whole number of at least 1 (argparse prints the error and exits 2)."""
    n = int(text) if text.isdigit() else 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not '{text}'")
    return n


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--catan-games", type=count, default=40, help="catanatron games per run")
    ap.add_argument("--games", type=count, default=2_000, help="our random-bot base games per run")
    ap.add_argument("--value-games", type=count, default=1_000, help="our value and weighted New Shores games per run")
    ap.add_argument("--scenario-games", type=count, default=200, help="kernel games per run, per scenario")
    ap.add_argument("--ref-games", type=count, default=3, help="reference games per scenario")
    ap.add_argument("--rounds", type=count, default=3, help="runs per measurement (the best counts)")
    args = ap.parse_args(argv)
    catanatron = versus_catanatron(args.catan_games, args.games, args.rounds)
    value_bots(args.value_games, args.rounds)
    per_scenario(args.scenario_games, args.value_games // 2, args.rounds, catanatron)
    kernel_vs_reference(args.scenario_games, args.ref_games, args.rounds)


if __name__ == "__main__":
    main()
