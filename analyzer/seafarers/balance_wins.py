"""Board fairness by winning (`tabletop seafarers balance --by wins`): full games on every board of the income model.

    r = play_balance_wins("four-islands", players=4, boards=200, rolls=60, heuristic="pips", seed=1,
                          games_per_board=100)
    r.summary["by_wins"], r.seats           # dict; one row per board and seat: income figures, wins, features

Board b of the seed is the income model's board b (analyzer/seafarers/balance.py: the same deal plan and seed).
Full game m on it is game g = b * M + m of its own job (M games per board), with the dice, deck and bots' draws of
(seed, g) as in `play`. Every seat plays the same bot, which drafts with the income model's heuristic and weights,
so a seat's win rate on a board measures the board and the seat, not the bots. What is fitted and why
(docs/seafarers/balance.md, "By wins"):

- per seat, how much the boards move its chance of winning beyond the dice: the spread of its per-board win rate
  less the binomial spread M games on one board would show anyway (method of moments);
- how well the income model's seat advantage on a board predicts the seat's full-game advantage there: Pearson r
  over board-seats, its 95% CI from a bootstrap over boards, and r corrected for the games' sampling noise;
- which board and seat features predict a win: a binomial logistic regression (statsmodels GLM) of each seat's
  wins out of M on standardised features, with CIs clustered by board.
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass

import numpy as np
import polars as pl

from analyzer.job import Job, Statistic
from analyzer.runner import RunOptions, run_job
from analyzer.seafarers.balance import Balance, BalanceResult, make_balance, play_balance
from analyzer.seafarers.full_game import SILENT_DEFAULTS
from kernels.catan import game as kg

__all__ = ["DEFAULT_GAMES_PER_BOARD", "WinsResult", "default_bot", "play_balance_wins", "wins_job"]

DEFAULT_GAMES_PER_BOARD = 100
MAX_GAMES_PER_BOARD = 1_000_000
MAX_GAMES = 10**8  # as `play`
BOOTSTRAP = 2_000  # resamples of the boards for the correlation's and the spreads' CIs
SEAT_FEATURES = {  # name: (column of the seats table, what a reader reads, its unit)
    "income": ("expected_total", "seat's expected income (pips / 36 of its draft)", "cards/roll"),
    "resources": ("resources", "resources its draft produces", "of 5"),
    "harbour": ("harbour", "a draft settlement at a harbour", ""),
    "to_bonus": ("to_bonus", "edges from its draft to the nearest bonus site", "edges"),
}
BOARD_FEATURES = {  # name: (column of the boards table, what a reader reads, its unit)
    "income_spread": ("seat_spread", "income model's seat spread (best − worst expected income)", "cards/roll"),
    "balance_index": ("balance_index", "balance index (variance of the resources' pips)", "pips²"),
    "red_spacing": ("red_min_distance", "closest red numbers", "hexes apart"),
    "pips_total": ("pips_total", "pips on the board", "pips"),
}


@dataclass(frozen=True)
class WinsResult:
    summary: dict  # the income model's summary, with "by_wins"
    boards: pl.DataFrame  # the income model's boards, with each board's win spread
    seats: pl.DataFrame  # one row per board and seat: the income model's figures, games, wins, win_rate, features
    income: BalanceResult

    @property
    def experiment(self) -> Balance:
        return self.income.experiment

    def drawing(self, board: int) -> dict:
        return self.income.drawing(board)


def default_bot(heuristic_label: str) -> str:
    """The value bot drafting as the income model's heuristic does: its opening and the heuristic's weights."""
    name, _, args = heuristic_label.partition(":")
    return f"value:opening={name}" + (f",{args}" if args else "")


def wins_job(exp: Balance, bot: str, games_per_board: int, rules_text: str, rule=()) -> Job:
    """Game g of this job is full game g % M on board g // M of the balance experiment (int32 result columns of
    kernels/catan/game.py)."""
    spec = {"game": "seafarers", "experiment": "balance-wins", "scenario": exp.scenario.slug,
            "players": exp.players, "bot": bot, "seed": exp.seed, "games_per_board": int(games_per_board),
            "max_clump": exp.plan.max_clump, "rules": rules_text, "rule": list(rule or ())}
    return Job(wins_play_range, spec, kg.N_RESULT_COLS, "int32",
               Statistic(kg.R_WINNER, "proportion", "win rate of seat 1", value=0))


def wins_play_range(spec: dict):
    """Job builder: games start .. start + out.shape[1] - 1, each on board game // M of the seed."""
    from analyzer.seafarers.boards import Boards, deal_plan, generate_boards
    from analyzer.seafarers.bots import bot_vectors, parse_bot
    from analyzer.seafarers.full_rules import load_rules
    from analyzer.seafarers.play import deal_board, deal_static, fresh_board, play_dealt_chunk
    from analyzer.seafarers.scenarios import load_scenario

    scenario = load_scenario(spec["scenario"], spec["players"])
    rules = load_rules(text=spec["rules"], rule=spec["rule"])
    plan = deal_plan(scenario, spec["max_clump"])
    policies, params = bot_vectors([parse_bot(spec["bot"])] * spec["players"])
    static = deal_static(scenario)
    template = deal_board(scenario, rules, static)
    m = spec["games_per_board"]

    def play(start: int, out: np.ndarray) -> None:
        n = max(out.shape[1], 1)  # n == 0, the runner's warm-up, compiles on one scratch game
        first, last = start // m, (start + n - 1) // m
        dealt = generate_boards(plan, last - first + 1, spec["seed"], first=first)
        row = np.arange(start, start + n) // m - first
        games = Boards(spec["seed"], start, dealt.terrain[row], dealt.number[row], dealt.harbour[row],
                       dealt.tries[row], 0.0)
        block = np.zeros((kg.N_RESULT_COLS, n), np.int64)
        play_dealt_chunk(fresh_board(template), static, spec["seed"], start, games, policies, params, block)
        out[:] = block[:, :out.shape[1]]
    return play


def check_wins(scenario: str, players: int, boards: int, games_per_board: int, bot: str) -> None:
    from analyzer.lineup import one_arm
    from analyzer.seafarers.full_game import check_play
    from analyzer.seafarers.limits import check_product, check_range

    check_range("--games-per-board", games_per_board, 2, MAX_GAMES_PER_BOARD,
                "a board's win rates need at least 2 games")
    check_product("full games", {"--boards": boards, "--games-per-board": games_per_board}, MAX_GAMES,
                  "runs longer than that are split by seed")
    bot = one_arm(bot, "--bot", "bot", "`tabletop seafarers tournament`")
    check_play(scenario, players, [bot], boards * games_per_board, 0, "random")


def play_balance_wins(scenario: str, players: int, boards: int, rolls: int, heuristic: str, seed: int, *,
                      games_per_board: int = DEFAULT_GAMES_PER_BOARD, bot: str | None = None, rules_file=None,
                      rule=None, sequences: int | None = None, gold_policy: str = "poorest",
                      spend_to: int | None = None, max_clump: int = 0, threads: int | None = None,
                      progress: bool = False, command: str = "", checkpoint=None, **scale) -> WinsResult:
    """The income model on `boards` boards, then `games_per_board` full games on each; `scale`: the runner's
    chunk_size, dask_local or scheduler. With a checkpoint, the income run keeps its chunks in checkpoint/income
    and the full games in checkpoint/wins."""
    from pathlib import Path

    from analyzer.seafarers.balance import DEFAULT_SEQUENCES, DEFAULT_SPEND_TO
    from analyzer.seafarers.full_rules import rules_for
    from analyzer.seafarers.scenarios import load_scenario

    game = {"sequences": DEFAULT_SEQUENCES if sequences is None else sequences, "gold_policy": gold_policy,
            "spend_to": DEFAULT_SPEND_TO if spend_to is None else spend_to, "max_clump": max_clump}
    exp = make_balance(scenario, players, rolls, heuristic, seed, **game)
    bot = default_bot(exp.heuristic.label) if bot is None else bot
    check_wins(scenario, players, boards, games_per_board, bot)
    text, rules = rules_for(rules_file, rule, [load_scenario(scenario, players)])
    rules_name = rules.source
    t0 = time.perf_counter()
    options = RunOptions.of(boards * games_per_board, threads=threads, progress=progress, label="full games",
                            **scale, checkpoint=None if checkpoint is None else Path(checkpoint) / "wins")
    run = run_job(wins_job(exp, bot, games_per_board, text, rule), options, notes={"command": command})
    income = play_balance(scenario, players, boards, rolls, heuristic, seed, threads=threads, progress=progress,
                          command=command, **game, **scale,
                          checkpoint=None if checkpoint is None else Path(checkpoint) / "income")
    winner = run.columns[kg.R_WINNER].reshape(boards, games_per_board)
    wins = win_counts(winner, players)
    seats = seats_table(income.seats, wins, games_per_board, seat_features(exp, boards, rules))
    halves = (win_counts(winner[:, 0::2], players), win_counts(winner[:, 1::2], players))
    board_df = income.boards.with_columns(
        pl.Series("win_spread", (wins.max(axis=1) - wins.min(axis=1)) / games_per_board),
        pl.Series("win_sd", (wins / games_per_board).std(axis=1)))
    from analyzer.seafarers.bots import bot_name, parse_bot

    summary = dict(income.summary)
    summary["by_wins"] = summarize_wins(seats, board_df, halves, games_per_board, seed) | {
        "bot": bot_name(parse_bot(bot)), "bot_spec": parse_bot(bot).label,
        "drafts_as_income_model": bot == default_bot(exp.heuristic.label),
        "rules": rules_name, "rules_data": rules.data_file(), "rule_options": dict(rules.chosen), "run": run.info,
        "games_per_second": round(run.played / run.wall, 1) if run.wall > 0 and run.played else None}
    summary["assumptions"] = list(summary["assumptions"]) + wins_assumptions(summary["by_wins"], exp.scenario, rules)
    summary.update(experiment="seafarers balance --by wins", wall_seconds=round(time.perf_counter() - t0, 3))
    return WinsResult(summary, board_df, seats, income)


def win_counts(winner: np.ndarray, players: int) -> np.ndarray:
    """int [boards, players]: games each seat won on each board (winner int [boards, games]; a capped game's
    -1: nobody)."""
    return np.stack([(winner == s).sum(axis=1) for s in range(players)], axis=1)


def seats_table(income_seats: pl.DataFrame, wins: np.ndarray, games_per_board: int,
                features: dict[str, np.ndarray]) -> pl.DataFrame:
    """The income model's seats (one row per board and seat) with each seat's full-game wins and draft features."""
    boards, players = wins.shape
    extra = pl.DataFrame({
        "board": np.repeat(np.arange(boards, dtype=np.int64), players),
        "seat": np.tile(np.arange(1, players + 1, dtype=np.int8), boards),
        "games": np.full(boards * players, games_per_board, np.int32),
        "wins": wins.ravel().astype(np.int32),
        "win_rate": wins.ravel() / games_per_board,
        **{k: v.ravel() for k, v in features.items()},
    })
    return income_seats.join(extra, on=["board", "seat"], how="left").sort(["board", "seat"])


def seat_features(exp: Balance, boards: int, rules) -> dict[str, np.ndarray]:
    """float [boards, players] per feature the income model's draft gives beyond its own columns: the resources the
    seat produces, a settlement at a harbour, and the edges from its draft to the nearest bonus site it could still
    claim (NaN where the scenario has none)."""
    from analyzer.seafarers.boards import generate_boards
    from analyzer.seafarers.table import game_table

    p, topo = exp.players, exp.scenario.topology
    out = {k: np.full((boards, p), np.nan) for k in ("resources", "harbour", "to_bonus")}
    dealt = generate_boards(exp.plan, boards, exp.seed)
    for b in range(boards):
        view, placed = exp.seat_view(b, dealt.terrain[b], dealt.number[b], dealt.harbour[b])
        table = game_table(exp.scenario, rules, dealt.terrain[b], dealt.number[b], dealt.harbour[b])
        for seat in range(p):
            corners = placed.corners_of(seat)
            pips = view.corner_pips[corners].sum(axis=0)
            out["resources"][b, seat] = int((pips[:5] > 0).sum())
            out["harbour"][b, seat] = float(any(view.corner_harbour[c] >= 0 for c in corners))
            home = {int(table.corner_territory[c]) for c in corners}
            targets = [c for c in range(topo.n_corner) if topo.corner_in_play[c] and table.corner_territory[c] >= 0
                       and not (table.territory_foreign_only[table.corner_territory[c]]
                                and table.corner_territory[c] in home)]
            if targets:
                out["to_bonus"][b, seat] = corner_distance(topo, corners, set(targets))
    return out


def corner_distance(topo, sources: list[int], targets: set[int]) -> float:
    """Edges (roads or ships) from the nearest of `sources` to the nearest of `targets`, over corners in play."""
    seen = dict.fromkeys(sources, 0)
    queue = deque(sources)
    while queue:
        c = queue.popleft()
        if c in targets:
            return float(seen[c])
        for n in topo.corner_neighbours[c]:
            if n >= 0 and n not in seen and topo.corner_in_play[n]:
                seen[int(n)] = seen[c] + 1
                queue.append(int(n))
    return math.nan


def summarize_wins(seats: pl.DataFrame, boards: pl.DataFrame, halves: tuple[np.ndarray, np.ndarray], m: int,
                   seed: int) -> dict:
    """Seat win rates, each seat's spread over boards beyond the dice, the income model against the games, the
    feature model, and the fairest and least fair boards (by the spread of the seats' win rates)."""
    from analyzer import stats

    n, players = boards.height, int(seats["seat"].max())
    wins = seats["wins"].to_numpy().reshape(n, players)
    rate = wins / m
    income = seats["income_total"].to_numpy().reshape(n, players)
    expected = seats["expected_total"].to_numpy().reshape(n, players)
    decided = float(wins.sum() / (n * m))
    per_seat = []
    for s in range(players):
        lo, hi = stats.clustered_wilson_ci_counts(wins[:, s], np.ones(n), m)  # the games of a board: one cluster
        per_seat.append({"seat": s + 1, "wins": int(wins[:, s].sum()), "games": n * m,
                         "win_rate": float(wins[:, s].sum() / (n * m)), "ci95": [lo, hi],
                         "board_spread": stats.excess_binomial_sd(wins[:, s], m, seed=seed + s),
                         "income": float(income[:, s].mean()), "expected": float(expected[:, s].mean())})
    out = {"boards": n, "games_per_board": m, "games": n * m, "decided_share": decided,
           "fair_share": decided / players, "seats": per_seat, "income_vs_wins": None, "expected_vs_wins": None,
           "model": None, "board_model": None}
    if n >= 3:
        by_board = np.repeat(np.arange(n), players)
        y = _advantage(rate)
        reliability = _split_half_reliability(halves, m)
        for key, x in (("income_vs_wins", income), ("expected_vs_wins", expected)):
            c = stats.clustered_correlation(_advantage(x), y, by_board, seed=seed)
            c["reliability"] = reliability
            c["r_corrected"] = (float(np.clip(c["r"] / math.sqrt(reliability), -1, 1))
                                if reliability and reliability > 0 and math.isfinite(c["r"]) else None)
            out[key] = c
        out["model"] = feature_model(seats, m, decided / players)
        out["board_model"] = board_model(boards)
        out["mean_win_sd"] = float(100 * boards["win_sd"].mean())
    spread = boards["win_spread"].to_numpy()
    out["fairest_board"] = _board_wins(seats, int(np.argmin(spread)), m)
    out["least_fair_board"] = _board_wins(seats, int(np.argmax(spread)), m)
    return out


def _advantage(per_seat: np.ndarray) -> np.ndarray:
    """[boards, players] -> each seat's figure less its board's mean over the seats, flattened board-major."""
    return (per_seat - per_seat.mean(axis=1, keepdims=True)).ravel()


def _split_half_reliability(halves: tuple[np.ndarray, np.ndarray], m: int) -> float | None:
    """How much of the spread of the seats' win-rate advantages is not the games' noise: the correlation of the
    advantage measured on a board's even and on its odd games, stepped up to all M games (Spearman–Brown)."""
    a, b = (_advantage(h / len(range(k, m, 2))) for k, h in enumerate(halves))
    if a.std() == 0 or b.std() == 0:
        return None
    r = float(np.corrcoef(a, b)[0, 1])
    return 2 * r / (1 + r) if r > -1 else None


def _standardised(table: pl.DataFrame, features: dict) -> tuple[list[np.ndarray], list[str], dict[str, str]]:
    """The features that vary and are known for every row: yes/no ones as they are, the others per standard
    deviation; with each one's label for the report."""
    columns, names, labels = [], [], {}
    for name, (column, label, unit) in features.items():
        v = table[column].to_numpy().astype(np.float64)
        if not (np.all(np.isfinite(v)) and v.std() > 0):
            continue
        binary = set(np.unique(v)) <= {0.0, 1.0}
        columns.append(v if binary else (v - v.mean()) / v.std())
        names.append(name)
        labels[name] = f"{label} (yes against no)" if binary else f"{label}, +1 sd ({_num(v.std())} {unit})"
    return columns, names, labels


def feature_model(seats: pl.DataFrame, m: int, base_rate: float) -> dict:
    """Which seats win: each seat's wins out of M on its own features and its place (seat k against seat 1),
    CIs clustered by board; each term also as points of win rate at the fair share (an odds ratio moves a share
    p to OR p / (1 − p + OR p))."""
    from analyzer import stats

    columns, names, labels = _standardised(seats, SEAT_FEATURES)
    seat = seats["seat"].to_numpy()
    for s in range(2, int(seat.max()) + 1):
        columns.append((seat == s).astype(np.float64))
        names.append(f"seat_{s}")
        labels[f"seat_{s}"] = f"seat {s} against seat 1"
    fit = stats.binomial_logit(seats["wins"].to_numpy(), m, np.column_stack(columns), names,
                               clusters=seats["board"].to_numpy())
    fit["left_out"] = [name for name in SEAT_FEATURES if name not in names]
    for term in fit.get("terms", [])[1:]:
        term["label"] = labels[term["name"]]
        term["points"] = [100 * (_shift(base_rate, x) - base_rate) for x in
                          (term["odds_ratio"], *term["odds_ratio_ci95"])]
    return fit


def board_model(boards: pl.DataFrame) -> dict | None:
    """Which boards are unfair: the spread of a board's seat win rates (their standard deviation, in points)
    on the board's features, by least squares with robust CIs."""
    from analyzer import stats

    columns, names, labels = _standardised(boards, BOARD_FEATURES)
    if not columns or boards.height <= len(columns) + 2:
        return None
    fit = stats.linear_fit(100 * boards["win_sd"].to_numpy(), np.column_stack(columns), names)
    for term in fit["terms"][1:]:
        term["label"] = labels[term["name"]]
    fit["left_out"] = [name for name in BOARD_FEATURES if name not in names]
    return fit


def _shift(p: float, odds_ratio: float) -> float:
    return odds_ratio * p / (1 - p + odds_ratio * p)


def _num(x: float) -> str:
    return f"{x:.3g}"


def _board_wins(seats: pl.DataFrame, board: int, m: int) -> dict:
    from analyzer import stats

    rows = seats.filter(pl.col("board") == board).sort("seat")
    wins = rows["wins"].to_list()
    return {"board": board, "win_rates": [k / m for k in wins],
            "ci95": [list(stats.wilson_ci(k, m)) for k in wins], "expected": rows["expected_total"].to_list(),
            "favoured_seat": int(np.argmax(wins)) + 1}


def wins_assumptions(by_wins: dict, scenario, rules) -> list[str]:
    from analyzer.seafarers.full_game import cloth_assumptions, option_texts

    m = by_wins["games_per_board"]
    return [
        f"By wins: {m:,} full games on each board, every seat played by {by_wins['bot']}; game m on board b is "
        f"game b × {m:,} + m of the seed (its dice, deck and the bots' draws), so another --boards keeps the boards "
        "already played. A game stopped at the turn cap has no winner.",
        ("The bots draft with the income model's heuristic and weights, in the full game's own draft (ties may fall "
         "otherwise); the seat features of the model are those of the income model's draft."
         if by_wins["drafts_as_income_model"] else
         f"The bots draft by their own opening ({by_wins['bot']}), not the income model's heuristic: the seat "
         "features of the model and the income figures are the income model's draft, not the games'."),
        "A seat's advantage on a board: its win rate less the board's mean over the seats (and its income per roll "
        "less the board's mean, for the income model). The correlation's 95% CI is a bootstrap over boards; "
        "'corrected' divides r by the square root of the win-rate advantage's split-half reliability (even against "
        "odd games of each board, Spearman–Brown); the income figure's own noise is left in, so the corrected r is "
        "still a lower bound.",
        "A seat's spread over boards: the standard deviation of its per-board win rate less what the binomial noise "
        f"of {m:,} games gives anyway (method of moments), with a bootstrap CI over boards.",
        "Feature model: binomial logistic regression (statsmodels GLM) of each seat's wins out of the board's games "
        "on the standardised features (odds ratio per standard deviation) and the seat (against seat 1), CIs "
        "clustered by board; points: the odds ratio's move of a fair share of wins.",
        f"Full games: {rules.describe(scenario)} {SILENT_DEFAULTS}",
        *option_texts(rules, [scenario]),
        *cloth_assumptions(scenario, rules),
    ]
