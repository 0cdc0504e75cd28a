"""The Python API of Catan: Seafarers: one function per `tabletop seafarers` command, returning its tables.

Each takes the command's options as keyword arguments (the runner's `threads`, `chunk_size`, `progress`,
`dask_local`, `scheduler`, `checkpoint` too) and, given `out=FOLDER`, also writes what the command's
`--out` writes, checked before any work and all or nothing:

    >>> from analyzer import seafarers
    >>> r = seafarers.run_balance("new-shores", players=4, boards=200, heuristic="diverse", seed=1, out="runs/bal")
    >>> r.summary["first_vs_last"]["mean_diff"], r.seats.columns[:3]   # summary dict, polars tables

| function (command) | returns |
|---|---|
| `catalog()` (scenarios) | a list of dicts: every scenario and player count, VP target, layout status |
| `run_boards(scenario, ...)` (boards) | BoardsResult: summary, boards (one row per board and hex), harbours |
| `run_balance(scenario, ...)` (balance) | BalanceResult: summary, boards, seats (one row per board and seat); |
| `run_balance(..., by="wins")` | WinsResult: the same with each seat's full-game wins per board, `summary["by_wins"]` |
| `run_dice(rolls, ...)` (dice) | a dict: sums and lower dice against the exact laws, longest gaps |
| `run_fortress(warships, ...)` (fortress) | a dict: single battles and whole sieges, exact and simulated |
| `run_pirates(...)` (pirates) | PiratesResult: summary, games (one row per plan, game and seat) |
| `run_play(scenario, ...)` (play) | PlayResult: summary, games (one row per full game and seat) |
| `run_tournament(scenario, ...)` (tournament) | TournamentResult: summary, games (one row per game, seating, seat) |
| `run_seats(...)` (seats) | SeatsResult: summary, games (one row per scenario, player count and game) |
| `run_versus_catanatron(...)` (versus-catanatron) | VersusResult: summary, games (one row per pairing and game) |
| `run_ladder(experiment, ladder, ...)` (`--ladder`) | a dict: every rung's summary and the verdict |
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analyzer.api_args import BACKEND, PATH, RUN, TEXTS, checked_api
from analyzer.command import api_out_dir, results_folder, write_summary
from analyzer.errors import UserError
from analyzer.io import atomic_write_parquet
from analyzer.lineup import split_arms

__all__ = ["BoardsResult", "catalog", "run_boards", "run_balance", "run_dice", "run_fortress", "run_pirates",
           "run_ladder", "run_play", "run_seats", "run_tournament", "run_versus_catanatron"]


def catalog() -> list[dict]:
    """Every scenario of the catalog, 3 and 4 players: slug, name, hexes, VP target, layout status."""
    from analyzer.seafarers.scenarios import list_scenarios

    return [s.summary() for s in list_scenarios()]


@dataclass(frozen=True)
class BoardsResult:
    summary: dict
    boards: pl.DataFrame  # one row per board and hex: its terrain and number
    harbours: pl.DataFrame  # one row per board and harbour


@checked_api("seafarers.run_boards", run=BACKEND, out=PATH)
def run_boards(scenario: str, players: int = 4, count: int = 1, seed: int = 0, max_clump: int = 0, out=None,
           command: str = "", **run) -> BoardsResult:
    """Random legal boards of the scenario's variable set-up (board b of a seed is always the same board);
    with `out`, also boards.parquet, harbours.parquet, summary.json and board.png (board 0)."""
    from analyzer.params import check_seed
    from analyzer.runner import RunOptions
    from analyzer.seafarers.boards import (
        board_drawing,
        boards_summary,
        boards_table,
        deal_boards,
        deal_plan,
        harbours_table,
    )
    from analyzer.seafarers.limits import check_option
    from analyzer.seafarers.scenarios import load_scenario

    check_option("--count", count)
    check_seed(seed)
    plan = deal_plan(load_scenario(scenario, players), max_clump)
    RunOptions.of(count, **run)
    out = api_out_dir(out, "seafarers boards")
    dealt, info = deal_boards(plan, count, seed, **run)
    result = BoardsResult(boards_summary(plan, dealt, command, info), boards_table(plan.scenario, dealt),
                          harbours_table(plan.scenario, dealt))
    if out is not None:
        from reports.seafarers.balance import write_board_png

        with results_folder(out) as stage:
            atomic_write_parquet(stage / "boards.parquet", result.boards)
            atomic_write_parquet(stage / "harbours.parquet", result.harbours)
            write_board_png(stage / "board.png", plan.scenario, board_drawing(plan.scenario, dealt),
                            f"{plan.scenario.name}, {players} players: board 0 of seed {seed}")
            write_summary(stage, result.summary, "seafarers boards")
    return result


@checked_api("seafarers.run_balance", run=BACKEND, out=PATH, keywords={
    "sequences": int, "gold_policy": str, "spend_to": int, "max_clump": int, "games_per_board": int | None,
    "bot": str | None, "rules_file": PATH | None, "rule": TEXTS | None})
def run_balance(scenario: str, players: int = 4, boards: int = 1000, rolls: int = 60, heuristic: str = "pips",
            seed: int = 0, out=None, command: str = "", by: str = "income", **options):
    """Every seat drafts with `heuristic` on random legal boards, then `sequences` roll sequences per board:
    how fair the seats are. `options`: sequences, gold_policy, spend_to, max_clump and the runner's. With
    `by="wins"`, also `games_per_board` full games on each board (options games_per_board, bot, rules_file,
    rule; analyzer/seafarers/balance_wins.py): a WinsResult. With `out`, also boards.parquet, seats.parquet,
    summary.json and the report (report.md/.html, plots)."""
    from analyzer.runner import RunOptions
    from analyzer.seafarers.balance import DEFAULT_SEQUENCES, check_boards, make_balance, play_balance

    if by not in ("income", "wins"):
        raise UserError(f"--by must be income or wins, not '{by}'")
    wins = {k: options.pop(k) for k in ("games_per_board", "bot", "rules_file", "rule") if k in options}
    if by == "income" and any(v is not None for v in wins.values()):
        raise UserError(f"{', '.join('--' + k.replace('_', '-') for k, v in wins.items() if v is not None)}: "
                        "only with --by wins (full games on every board)")
    game = {k: options.pop(k) for k in ("sequences", "gold_policy", "spend_to", "max_clump") if k in options}
    make_balance(scenario, players, rolls, heuristic, seed, **game)
    check_boards(boards, game.get("sequences", DEFAULT_SEQUENCES), rolls)
    RunOptions.of(boards, **options)
    if by == "wins":
        from analyzer.seafarers.balance_wins import DEFAULT_GAMES_PER_BOARD, check_wins, default_bot

        if wins.get("games_per_board") is None:  # (0 is refused, not read as the default)
            wins["games_per_board"] = DEFAULT_GAMES_PER_BOARD
        bot = wins.get("bot")
        check_wins(scenario, players, boards, wins["games_per_board"],
                   default_bot(make_balance(scenario, players, rolls, heuristic, seed, **game).heuristic.label)
                   if bot is None else bot)
        from analyzer.seafarers.full_rules import rules_for
        from analyzer.seafarers.scenarios import load_scenario

        rules_for(wins.get("rules_file"), wins.get("rule"), [load_scenario(scenario, players)])
    out = api_out_dir(out, "seafarers balance")
    if by == "wins":
        from analyzer.seafarers.balance_wins import play_balance_wins

        result = play_balance_wins(scenario, players, boards, rolls, heuristic, seed, command=command, **wins,
                                   **game, **options)
    else:
        result = play_balance(scenario, players, boards, rolls, heuristic, seed, command=command, **game, **options)
    if out is not None:
        from reports.seafarers.balance import write_balance_report

        source = result.summary["by_wins"] if by == "wins" else result.summary
        drawings = {key: result.drawing(source[f"{key}_board"]["board"]) for key in ("fairest", "least_fair")}
        with results_folder(out) as stage:
            atomic_write_parquet(stage / "boards.parquet", result.boards)
            atomic_write_parquet(stage / "seats.parquet", result.seats)
            write_summary(stage, result.summary, result.summary["experiment"])
            write_balance_report(stage, result.summary, result.experiment.scenario, drawings, result.seats)
    return result


@checked_api("seafarers.run_dice", run=BACKEND)
def run_dice(rolls: int = 1_000_000, seed: int = 0, **run) -> dict:
    """Roll pairs of dice (roll i of a seed is always the same roll): sums and lower dice against the exact
    laws (chi-square), means with CIs, longest gaps without each sum."""
    from analyzer.seafarers.dice import roll_stats

    return roll_stats(rolls, seed, **run)


@checked_api("seafarers.run_fortress", run=BACKEND)
def run_fortress(warships: int, battles: int = 100_000, seed: int = 0, sieges: int | None = None,
             loss_model: str = "rebuilt", **run) -> dict:
    """The Pirate Islands' fortress: single-battle odds with `warships`, and whole sieges, exact (Markov
    chain) and simulated with CIs."""
    from analyzer.seafarers.fortress import fortress_stats

    return fortress_stats(warships, battles, seed, sieges, loss_model, **run)


@checked_api("seafarers.run_pirates", run=BACKEND, rules_file=PATH, out=PATH)
def run_pirates(players: int = 4, games: int = 2000, seed: int = 0, plans: list[str] | None = None,
            raid_rule: str = "each", max_rounds: int = 200, heuristic: str = "pips", fleet_blocks: bool = False,
            draft_seed: int = 0, rules_file=None, out=None, command: str = "", **run):
    """The Pirate Islands race: every purchase plan (default: all three) on the same games; with `out`, also
    games.parquet, summary.json and the report."""
    from analyzer.runner import RunOptions
    from analyzer.seafarers.pirates import DEFAULT_PLANS, check_inputs, play_pirates

    plans = list(plans or DEFAULT_PLANS)
    check_inputs(players, games, seed, plans, raid_rule, max_rounds, heuristic, draft_seed, rules_file)
    RunOptions.of(games, **run)
    out = api_out_dir(out, "seafarers pirates")
    result = play_pirates(players, games, seed, plans, raid_rule, max_rounds, heuristic, fleet_blocks, draft_seed,
                         command=command, rules_file=rules_file, **run)
    if out is not None:
        from reports.seafarers.pirates import write_pirates_report

        with results_folder(out) as stage:
            atomic_write_parquet(stage / "games.parquet", result.games)
            write_summary(stage, result.summary, "seafarers pirates")
            write_pirates_report(stage, result.summary, result.setup)
    return result


@checked_api("seafarers.run_play", run=RUN, rules_file=PATH, out=PATH, rule=TEXTS)
def run_play(scenario: str, players: int = 4, bots: str | list[str] | None = None, games: int | None = None,
             seed: int = 0, boards: str = "random", rules_file=None, rotate: bool = False, out=None, command: str = "",
             rule=None, **run):
    """Full games of a scenario by bots (a name per seat, or one for all, as a list or "a,b,..."; default value),
    every game on its own random legal board (or the printed one, boards="fixed"), with `rotate` once per rotation
    of the bots through the seats; `rule`: rules [options] switched ("domestic_trade=false"); games: default 1,000,
    or precision=H (with min_games, max_games) to play until seat 1's win rate has a 95% CI half-width of at most
    H; with `out`, also games.parquet, summary.json and the report."""
    from analyzer.runner import RunOptions
    from analyzer.seafarers.full_game import check_play, play_games
    from analyzer.seafarers.full_rules import rules_for
    from analyzer.seafarers.scenarios import load_scenario

    bots = split_arms("value" if bots is None else bots, "--bots", "bot")
    check_play(scenario, players, bots, games, seed, boards)
    rules_for(rules_file, rule, [load_scenario(scenario, players)])
    RunOptions(games=games, **run).checked(default_games=1000)
    out = api_out_dir(out, "seafarers play")
    result = play_games(scenario, players, bots, games, seed, boards, rules_file, rotate, command=command, rule=rule,
                        **run)
    if out is not None:
        from reports.seafarers.play import write_play_report

        with results_folder(out) as stage:
            if result.games is not None:
                atomic_write_parquet(stage / "games.parquet", result.games)
            write_summary(stage, result.summary, "seafarers play")
            write_play_report(stage, result.summary, result.boards)
    return result


@checked_api("seafarers.run_tournament", run=RUN, rules_file=PATH, out=PATH, rule=TEXTS)
def run_tournament(scenario: str, players: int = 4, entrants: str | list[str] | None = None,
                   games: int | None = None, seed: int = 0, boards: str = "random", rules_file=None, out=None,
                   command: str = "", rule=None, **run):
    """Bots (entrants, at least 2) compared by winning full games: every game (default 1,000) played once per
    seating of the entrants on the same board, dice and deck; per entrant its win rate, mean VP, mean rolls to win
    and Bradley-Terry strength with CIs, every pair's paired difference; with `out`, also games.parquet,
    summary.json and the report."""
    from analyzer.runner import RunOptions
    from analyzer.seafarers.full_rules import rules_for
    from analyzer.seafarers.scenarios import load_scenario
    from analyzer.seafarers.tournament import check_tournament, play_tournament

    entrants = split_arms([] if entrants is None else entrants, "--entrants", "bot")
    check_tournament(scenario, players, entrants, games, seed, boards)
    rules_for(rules_file, rule, [load_scenario(scenario, players)])
    RunOptions(games=games, **run).checked(default_games=1000)
    out = api_out_dir(out, "seafarers tournament")
    result = play_tournament(scenario, players, entrants, games, seed, boards, rules_file, command=command, rule=rule,
                             **run)
    if out is not None:
        from reports.seafarers.tournament import write_tournament_report

        with results_folder(out) as stage:
            atomic_write_parquet(stage / "games.parquet", result.games)
            write_summary(stage, result.summary, "seafarers tournament")
            write_tournament_report(stage, result.summary)
    return result


@checked_api("seafarers.run_seats", run=RUN, scenarios=TEXTS, players=str | int | list[int], rules_file=PATH,
             out=PATH, rule=TEXTS)
def run_seats(scenarios: str = "all", players: str = "3,4", bot: str = "value", games: int | None = None,
              seed: int = 0, base: bool = True, rules_file=None, out=None, command: str = "", rule=None, **run):
    """The seat-advantage study: `bot` in every seat, random boards, for each scenario ('all': every one; or slugs
    separated by commas) and player count ("3,4"), with the base
    map as the reference unless base=False; games: default 1,000 per cell, or precision=H (with min_games,
    max_games) to play each cell until its worst seat's win rate has a 95% CI half-width of at most H;
    per_game=False keeps streaming aggregates only. With `out`, also games.parquet, summary.json and the report."""
    from analyzer.runner import RunOptions
    from analyzer.seafarers.full_rules import rules_for
    from analyzer.seafarers.scenarios import load_scenario
    from analyzer.seafarers.seats import check_seats, play_seats

    cells, _ = check_seats(scenarios, players, bot, games, seed, base)
    rules_for(rules_file, rule, [load_scenario(slug, p) for slug, p in cells])
    RunOptions(games=games, **run).checked(default_games=1000)
    out = api_out_dir(out, "seafarers seats")
    result = play_seats(scenarios, players, bot, games, seed, base, rules_file, command=command, rule=rule, **run)
    if out is not None:
        from reports.seafarers.seats import write_seats_report

        with results_folder(out) as stage:
            if result.games is not None:
                atomic_write_parquet(stage / "games.parquet", result.games)
            write_summary(stage, result.summary, "seafarers seats")
            write_seats_report(stage, result.summary)
    return result


def run_ladder(experiment: str, ladder: str | list[str], budget: float | None = None, out=None, command: str = "",
               on_estimate=None, **options) -> dict:
    """`experiment` (seats, balance with by="wins", tournament) once per rung of `ladder` (bots, "value,planner,..."),
    every rung on the same games (the same seed): whether its verdict holds at every rung (analyzer/ladder.py). Each
    rung first plays a few games for the estimate, which covers every rung; `budget` (seconds): refuse a ladder
    estimated to take longer. `on_estimate(estimate)` hears the estimate before the run. `options`: the experiment's
    function's. Returns the ladder's summary; with `out`, also summary.json and the report."""
    from analyzer.ladder import ladder_rungs
    from analyzer.runner import duration_text
    from analyzer.seafarers.ladder import check_rung, ladder_summary, play_seconds, probe_options, rung_options

    play = {"seats": run_seats, "balance": run_balance, "tournament": run_tournament}.get(experiment)
    rungs = ladder_rungs(ladder, check_rung(experiment, options))
    if budget is not None and not budget > 0:
        raise UserError(f"--budget must be a number of seconds above 0, not {budget}")
    out = api_out_dir(out, f"seafarers {experiment}")  # (the command's folder: a ladder's summary names its rungs)
    small, scale = probe_options(experiment, options)
    seconds = {}
    for rung in rungs:  # also every rung's checks, before the run
        probe = play(**rung_options(experiment, rung, {**small, "progress": False}))
        seconds[rung] = play_seconds(experiment, probe.summary) * scale
    estimate = {"seconds": sum(seconds.values()), "per_rung_seconds": seconds, "budget_seconds": budget,
                "upper_bound": options.get("precision") is not None}
    if budget is not None and estimate["seconds"] > budget:
        raise UserError(f"this ladder would take {'up to' if estimate['upper_bound'] else 'about'} "
                        f"{duration_text(estimate['seconds'])} ("
                        + ", ".join(f"{r} {duration_text(s)}" for r, s in seconds.items())
                        + f"), over --budget {duration_text(budget)}; ask for fewer games or fewer rungs")
    if on_estimate is not None:
        on_estimate(estimate)
    summaries = [play(command=command, **rung_options(experiment, rung, options)).summary for rung in rungs]
    summary = ladder_summary(experiment, rungs, summaries, options, estimate, command)
    if out is not None:
        from reports.ladder import write_ladder_report

        with results_folder(out) as stage:
            write_summary(stage, summary, summary["experiment"])
            write_ladder_report(stage, summary)
    return summary


@checked_api("seafarers.run_versus_catanatron", ours=TEXTS, theirs=TEXTS, out=PATH)
def run_versus_catanatron(ours: str | list[str] = "value", theirs: str | list[str] = "R,W", games: int = 100,
                          seed: int = 0, players: int = 2, out=None, command: str = ""):
    """Our bots (`ours`, as `play --bots` names them) against catanatron's players (`theirs`: R, W, VP, AB, F) in
    catanatron's own engine on its base map, `games` games per pairing, 1v1 (players=2) or ours in one seat against
    theirs in every other, seats rotated (analyzer/seafarers/versus_catanatron.py); needs the extra .[catanatron].
    With `out`, also games.parquet, summary.json and the report."""
    from analyzer.seafarers.versus_catanatron import check_versus, play_versus
    from reports.seafarers.versus_catanatron import pairing_sentence, write_versus_report

    ours = split_arms(ours, "--ours", "bot")
    theirs = [t.strip() for t in split_arms(theirs, "--theirs", "catanatron player")]
    check_versus(ours, theirs, games, seed, players)
    out = api_out_dir(out, "seafarers versus-catanatron")
    result = play_versus(ours, theirs, games, seed, players, command=command)
    for pairing in result.summary["pairings"]:
        pairing["sentence"] = pairing_sentence(pairing)
    if out is not None:
        with results_folder(out) as stage:
            atomic_write_parquet(stage / "games.parquet", result.games)
            write_summary(stage, result.summary, "seafarers versus-catanatron")
            write_versus_report(stage, result.summary)
    return result
