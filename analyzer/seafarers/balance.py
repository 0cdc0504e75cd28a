"""How fair is a Seafarers set-up? Random legal boards, a heuristic snake draft, many roll sequences.

    result = play_balance("new-world", players=4, boards=1000, rolls=60, heuristic="pips", seed=1)
    result.summary, result.boards, result.seats        # dict, polars tables

Board b of the seed is dealt from its own stream (kernels/catan/deal.py), the seats draft on it
with the heuristic (analyzer/seafarers/setup_policies.py, ties from (seed, b, PURPOSE_POLICY)), then
`sequences` roll sequences of `rolls` rolls each are played over it by the production kernel
(kernels/catan/production.py), each from the seats' starting resources and with the scenario's robber bans:
sequence k of board b is the dice stream (seed, b * sequences + k, PURPOSE_DICE). Per board the runner
records board figures and per-seat means over the sequences; seat figures with CIs are then Student-t
intervals over the boards (boards are independent draws, sequences on one board are not independent of
each other).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import polars as pl

from analyzer import stats
from analyzer.job import Job
from analyzer.params import check_seed
from analyzer.provenance import provenance
from analyzer.runner import RunOptions, run_job
from analyzer.seafarers.boards import (
    Boards,
    DealPlan,
    board_drawing,
    deal_assumptions,
    deal_plan,
    generate_boards,
    robber_start,
)
from analyzer.seafarers.limits import (
    IN_PARTS,
    MAX_BALANCE_ROLLS,
    MAX_BOARD_ROLLS,
    MAX_HAND,
    MAX_SEQUENCE_ROLLS,
    MAX_SEQUENCES,
    check_option,
    check_product,
    check_range,
)
from analyzer.seafarers.pirates import fleet_stationary
from analyzer.seafarers.production import check_board, parse_gold_policy
from analyzer.seafarers.scenarios import Scenario, list_scenarios, load_scenario
from analyzer.seafarers.setup_policies import Draft, Heuristic, board_view, draft, parse_heuristic
from kernels.catan import dice as kd
from kernels.catan import production as kp
from kernels.catan.codes import FIRST_RESOURCE_TERRAIN, GOLD, N_RESOURCES, PIPS, RESOURCE_NAMES, SEA

__all__ = ["BOARD_COLUMNS", "SEAT_COLUMNS", "BalanceResult", "Balance", "play_balance"]

DEFAULT_SEQUENCES = 100
DEFAULT_SPEND_TO = 4
MAX_SETTLEMENTS = 3  # 2, or 3 in Cloth for Catan and the Pirate Islands (one pre-placed)
INCOME = (*RESOURCE_NAMES, "gold")

BOARD_COLUMNS = ("tries", *(f"pips_{r}" for r in INCOME), "pips_total", "balance_index", "red_min_distance",
                 "red_mean_nearest", "sevens_per_roll", "seat_spread", "robber_hex")
SEAT_COLUMNS = (
    *(f"corner_{k}" for k in range(1, MAX_SETTLEMENTS + 1)),
    *(f"piece_{k}" for k in range(1, MAX_SETTLEMENTS + 1)),  # edge of the road / ship next to settlement k
    *(f"ship_{k}" for k in range(1, MAX_SETTLEMENTS + 1)),  # 1 ship, 0 road, -1 none
    "start_cards",  # resource cards held before the first roll (the starting resources)
    *(f"expected_{r}" for r in INCOME), "expected_total",  # analytic cards per roll, no robber
    *(f"income_{r}" for r in RESOURCE_NAMES), "income_total",  # cards received per roll (gold picks included)
    "gold_cards", "blocked", "gross_total",  # per roll: from gold fields; kept back by the robber; income + blocked
    *(f"missing_{r}" for r in RESOURCE_NAMES), "missing_any",  # share of sequences without that resource
    "targeted_share", "discard_share", "robbed_per_seven",  # per 7 rolled
)
_INT_SEAT = {c for c in SEAT_COLUMNS if c.split("_")[0] in ("corner", "piece", "ship")}
_B = {c: i for i, c in enumerate(BOARD_COLUMNS)}
_S = {c: i for i, c in enumerate(SEAT_COLUMNS)}
SEVEN = 7 - 2  # index of the sum 7 in the dice block counts


@dataclass(frozen=True, eq=False)
class Balance:
    """One balance experiment, checked; `play_range` fills the runner's columns board by board."""

    plan: DealPlan
    heuristic: Heuristic
    rolls: int
    sequences: int
    seed: int
    gold_policy: int
    spend_to: int

    @property
    def scenario(self) -> Scenario:
        return self.plan.scenario

    @property
    def players(self) -> int:
        return self.scenario.players

    @property
    def n_cols(self) -> int:
        return len(BOARD_COLUMNS) + self.players * len(SEAT_COLUMNS)

    @cached_property
    def coords(self) -> np.ndarray:
        return self.scenario.coords.astype(np.int64)

    def seat_view(self, board: int, terrain, number, harbour) -> tuple:
        """(BoardView, Draft) of one dealt board."""
        view = board_view(self.scenario, terrain, number, harbour)
        return view, draft(view, self.heuristic, self.seed, board)

    def play_range(self, start: int, out: np.ndarray) -> None:
        if out.shape[1] == 0:  # the runner's warm-up: load or compile every kernel on one scratch board
            self.play_range(start, np.zeros((out.shape[0], 1), out.dtype))
            return
        boards = generate_boards(self.plan, out.shape[1], self.seed, first=start)
        for j in range(boards.count):
            out[:, j] = self.play_board(boards, j)

    def play_board(self, boards: Boards, j: int) -> np.ndarray:
        board = boards.first + j
        s, p, t, n_seq = self.scenario, self.players, self.rolls, self.sequences
        topo = s.topology
        view, placed = self.seat_view(board, boards.terrain[j], boards.number[j], boards.harbour[j])
        owner = placed.owner(topo.n_corner)
        building = placed.building(topo.n_corner)
        terrain = np.where(view.terrain < 0, SEA, view.terrain).astype(np.int8)  # fog: unexplored, no yield
        robber = self.robber(view, owner)
        args = check_board(terrain, view.number, topo.corner_hexes, building, owner, robber, p)
        start_hands = kp.starting_hands(args[0], args[1], args[2],
                                        np.array(placed.start_resource_corners(), np.int32), self.gold_policy)
        tallies = np.zeros((p * kp.N_TALLY, n_seq), np.int64)
        first_sequence = board * n_seq
        kp.simulate_rolls(kp.Board(*args, self.robber_banned(robber)), robber, start_hands, p, t, self.gold_policy,
                          self.spend_to, True, self.seed, first_sequence, tallies)  # True: the 7 rules in force
        dice = np.zeros((kd.DB_COLS, n_seq), np.int64)
        kd.dice_blocks(self.seed, t, t * (first_sequence + n_seq), first_sequence, dice)
        sevens = int(dice[kd.DB_SUM + SEVEN].sum())
        tallies = tallies.reshape(p, kp.N_TALLY, n_seq)

        col = np.full(self.n_cols, np.nan)
        bcol = col[:len(BOARD_COLUMNS)]
        seats = col[len(BOARD_COLUMNS):].reshape(p, len(SEAT_COLUMNS))
        expected = np.array([view.corner_pips[placed.corners_of(seat)].sum(axis=0) for seat in range(p)]) / 36
        self.board_figures(bcol, boards.terrain[j], boards.number[j], boards.tries[j], sevens, expected, robber)
        for seat in range(p):
            self.seat_figures(seats[seat], placed, seat, expected[seat], tallies[seat], sevens)
            seats[seat, _S["start_cards"]] = start_hands[seat].sum()
        return col

    def robber(self, view, owner: np.ndarray) -> int:
        """The robber's start hex; off the board it is a land hex no seat touches (the same until the first 7)."""
        s = self.scenario
        if s.robber.rule != "off-board":
            return robber_start(s, view.terrain, view.number)
        touched = np.zeros(s.topology.n_hex + 1, bool)
        touched[s.topology.corner_hexes[owner >= 0].ravel()] = True
        free = np.flatnonzero(view.flags.hex_land & ~touched[:-1])
        return int(free[0]) if free.size else -1

    def robber_banned(self, robber: int) -> np.ndarray:
        """bool [n_hex]: where the robber may never be moved: the scenario's forbidden zones (Forgotten Tribe,
        Cloth for Catan: the islets) and, where it may not return (Forgotten Tribe), its start hex."""
        s = self.scenario
        banned = np.zeros(s.topology.n_hex, np.bool_)
        for zone in s.robber.forbidden_zones:
            banned[list(s.zones[zone].hexes)] = True
        if not s.robber.return_to_start and robber >= 0 and s.robber.rule != "off-board":
            banned[robber] = True  # a modelled off-board start is not a real hex: nothing to keep it from
        return banned

    def board_figures(self, out, terrain, number, tries, sevens, expected, robber) -> None:
        pips = np.asarray(PIPS)[number] * (terrain >= GOLD)
        for k, r in enumerate(INCOME):
            code = GOLD if r == "gold" else FIRST_RESOURCE_TERRAIN + k
            out[_B[f"pips_{r}"]] = pips[terrain == code].sum()
        resource_pips = out[[_B[f"pips_{r}"] for r in RESOURCE_NAMES]]
        out[_B["pips_total"]] = pips.sum()
        out[_B["balance_index"]] = resource_pips.var()
        out[_B["red_min_distance"]], out[_B["red_mean_nearest"]] = red_spacing(self.coords[(number == 6) |
                                                                                          (number == 8)])
        out[_B["tries"]] = tries
        out[_B["sevens_per_roll"]] = sevens / (self.rolls * self.sequences)
        totals = expected.sum(axis=1)
        out[_B["seat_spread"]] = totals.max() - totals.min()
        out[_B["robber_hex"]] = robber

    def seat_figures(self, out, placed: Draft, seat: int, expected, tallies, sevens: int) -> None:
        mine = [(corner, edge, kind) for (corner, s), (edge, _, kind) in zip(placed.settlements, placed.pieces)
                if s == seat]
        for k in range(1, MAX_SETTLEMENTS + 1):
            corner, edge, kind = mine[k - 1] if k <= len(mine) else (-1, -1, "")
            out[_S[f"corner_{k}"]] = corner
            out[_S[f"piece_{k}"]] = edge
            out[_S[f"ship_{k}"]] = {"ship": 1, "road": 0}.get(kind, -1)
        for k, r in enumerate(INCOME):
            out[_S[f"expected_{r}"]] = expected[k]
        out[_S["expected_total"]] = expected.sum()
        per_roll = tallies.sum(axis=1) / (self.rolls * self.sequences)
        received = tallies[kp.T_RECEIVED:kp.T_RECEIVED + N_RESOURCES]
        for k, r in enumerate(RESOURCE_NAMES):
            out[_S[f"income_{r}"]] = per_roll[kp.T_RECEIVED + k]
            out[_S[f"missing_{r}"]] = np.mean(received[k] == 0)
        out[_S["income_total"]] = per_roll[kp.T_RECEIVED:kp.T_RECEIVED + N_RESOURCES].sum()
        out[_S["missing_any"]] = np.mean((received == 0).any(axis=0))
        out[_S["gold_cards"]] = per_roll[kp.T_GOLD]
        out[_S["blocked"]] = per_roll[kp.T_BLOCKED]
        out[_S["gross_total"]] = out[_S["income_total"]] + per_roll[kp.T_BLOCKED]
        if sevens:
            totals = tallies.sum(axis=1)
            out[_S["targeted_share"]] = totals[kp.T_TARGETED] / sevens
            out[_S["discard_share"]] = totals[kp.T_SEVENS_HIT] / sevens
            out[_S["robbed_per_seven"]] = totals[kp.T_ROBBED] / sevens


def red_spacing(coords: np.ndarray) -> tuple[float, float]:
    """(smallest, mean nearest-neighbour) hex distance between red-number hexes; NaN with fewer than 2."""
    if len(coords) < 2:
        return math.nan, math.nan
    dq = coords[:, None, 0] - coords[None, :, 0]
    dr = coords[:, None, 1] - coords[None, :, 1]
    dist = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) / 2
    np.fill_diagonal(dist, np.inf)
    nearest = dist.min(axis=1)
    return float(nearest.min()), float(nearest.mean())


@dataclass(frozen=True, eq=False)
class BalanceResult:
    summary: dict
    boards: pl.DataFrame  # one row per board
    seats: pl.DataFrame  # one row per board and seat
    experiment: Balance

    def drawing(self, board: int) -> dict:
        """Everything reports.seafarers.hexplot.draw_board needs for board `board`, with its draft."""
        exp = self.experiment
        dealt = generate_boards(exp.plan, 1, exp.seed, first=board)
        _view, placed = exp.seat_view(board, dealt.terrain[0], dealt.number[0], dealt.harbour[0])
        return {**board_drawing(exp.scenario, dealt), "settlements": placed.settlements,
                "pieces": [p for p in placed.pieces if p[0] >= 0]}


def make_balance(scenario: str, players: int, rolls: int, heuristic: str, seed: int, *,
                 sequences: int = DEFAULT_SEQUENCES, gold_policy: str = "poorest", spend_to: int = DEFAULT_SPEND_TO,
                 max_clump: int = 0) -> Balance:
    """Check every option (one-line UserError) and build the experiment."""
    check_range("--rolls", rolls, 1, MAX_SEQUENCE_ROLLS, "rolls per sequence; a game has about 60-100")
    check_range("--sequences", sequences, 1, MAX_SEQUENCES, "roll sequences per board, 800 bytes each per thread")
    check_product("rolls per board", {"--sequences": sequences, "--rolls": rolls}, MAX_BOARD_ROLLS,
                  "about 10 s per board on one core at the bound")
    check_seed(seed)
    check_range("--spend-to", spend_to, kp.NO_SPENDING, MAX_HAND,
                f"a hand never holds more than the bank's {MAX_HAND} resource cards", lowest="-1 (never spend)")
    return Balance(deal_plan(load_scenario(scenario, players), max_clump), parse_heuristic(heuristic), rolls,
                   sequences, seed, parse_gold_policy(gold_policy), spend_to)


def check_boards(boards: int, sequences: int, rolls: int) -> None:
    """--boards, alone and with the rolls each board takes (make_balance checks those)."""
    check_option("--boards", boards)
    check_product("rolls", {"--boards": boards, "--sequences": sequences, "--rolls": rolls}, MAX_BALANCE_ROLLS,
                  f"about a day on one core at the bound; {IN_PARTS}")


def balance_job(exp: Balance, gold_policy: str) -> Job:
    """Game b of this job is board b of the experiment: its board figures and per-seat means (float64)."""
    spec = {"game": "seafarers", "experiment": "balance", "scenario": exp.scenario.slug, "players": exp.players,
            "rolls": exp.rolls, "heuristic": exp.heuristic.label, "seed": exp.seed, "sequences": exp.sequences,
            "gold_policy": gold_policy, "spend_to": exp.spend_to, "max_clump": exp.plan.max_clump}
    return Job(balance_play_range, spec, exp.n_cols, "float64")


def balance_play_range(spec: dict):
    """Job builder (runs on the process that plays): spec -> the experiment's play_range."""
    return make_balance(spec["scenario"], spec["players"], spec["rolls"], spec["heuristic"], spec["seed"],
                        sequences=spec["sequences"], gold_policy=spec["gold_policy"], spend_to=spec["spend_to"],
                        max_clump=spec["max_clump"]).play_range


def play_balance(scenario: str, players: int, boards: int, rolls: int, heuristic: str, seed: int, *,
                sequences: int = DEFAULT_SEQUENCES, gold_policy: str = "poorest", spend_to: int = DEFAULT_SPEND_TO,
                max_clump: int = 0, threads: int | None = None, progress: bool = False,
                command: str = "", **scale) -> BalanceResult:
    """`scale`: the runner's chunk_size, dask_local or scheduler, checkpoint (board b is game b)."""
    exp = make_balance(scenario, players, rolls, heuristic, seed, sequences=sequences, gold_policy=gold_policy,
                       spend_to=spend_to, max_clump=max_clump)
    check_boards(boards, sequences, rolls)
    options = RunOptions.of(boards, threads=threads, progress=progress, label="boards", **scale)
    t0 = time.perf_counter()
    run = run_job(balance_job(exp, gold_policy), options, notes={"command": command})
    board_df, seat_df = tables(exp, run.columns)
    summary = summarize(exp, board_df, seat_df, gold_policy)
    summary.update(command=command, threads=threads, wall_seconds=round(time.perf_counter() - t0, 3),
                   boards_per_second=round(run.played / run.wall, 1) if run.wall > 0 and run.played else None,
                   run=run.info)
    return BalanceResult(summary, board_df, seat_df, exp)


def tables(exp: Balance, cols: np.ndarray) -> tuple[pl.DataFrame, pl.DataFrame]:
    n = cols.shape[1]
    nb = len(BOARD_COLUMNS)
    board_df = pl.DataFrame({"board": np.arange(n, dtype=np.int64),
                             **{c: cols[i] for i, c in enumerate(BOARD_COLUMNS)}})
    board_df = board_df.with_columns(pl.col("tries", "robber_hex").cast(pl.Int32))
    seat_block = cols[nb:].reshape(exp.players, len(SEAT_COLUMNS), n)
    seat_df = pl.DataFrame({
        "board": np.tile(np.arange(n, dtype=np.int64), exp.players),
        "seat": np.repeat(np.arange(1, exp.players + 1, dtype=np.int8), n),
        **{c: seat_block[:, i, :].ravel() for i, c in enumerate(SEAT_COLUMNS)},
    }).with_columns(pl.col(sorted(_INT_SEAT)).cast(pl.Int32))
    return board_df, seat_df


def _ci(values, support=stats.NON_NEGATIVE) -> dict:
    """Mean over boards with its t interval; every balance figure is a count, rate or share (0 or more)."""
    v = np.asarray(values, np.float64)
    v = v[np.isfinite(v)]
    if not v.size:
        return {"n": 0, "mean": None, "std": None, "sem": None, "ci95": [None, None]}
    return stats.mean_ci(v, support=support)


def _spread(values) -> dict:
    v = np.asarray(values, np.float64)
    v = v[np.isfinite(v)]
    if not v.size:
        return {"n": 0}
    return {"n": int(v.size), "mean": float(v.mean()), "std": float(v.std(ddof=1)) if v.size > 1 else None,
            "min": float(v.min()), "max": float(v.max()), **stats.percentiles(v, (5, 50, 95))}


def summarize(exp: Balance, board_df: pl.DataFrame, seat_df: pl.DataFrame, gold_policy: str) -> dict:
    s = exp.scenario
    seats = []
    for seat in range(1, exp.players + 1):
        rows = seat_df.filter(pl.col("seat") == seat)
        seats.append({
            "seat": seat,
            "income": {r: _ci(rows[f"income_{r}"]) for r in (*RESOURCE_NAMES, "total")},
            "expected": {r: _ci(rows[f"expected_{r}"]) for r in (*INCOME, "total")},
            "gross_total": _ci(rows["gross_total"]),
            "start_cards": _ci(rows["start_cards"]),
            "gold_cards": _ci(rows["gold_cards"]),
            "blocked": _ci(rows["blocked"]),
            "missing": {r: _ci(rows[f"missing_{r}"], stats.SHARE) for r in (*RESOURCE_NAMES, "any")},
            "sevens": {k: _ci(rows[k], stats.SHARE if k.endswith("share") else stats.NON_NEGATIVE)
                       for k in ("targeted_share", "discard_share", "robbed_per_seven")},
        })
    fleet = fleet_raid_risk(s, seat_df)
    if fleet is not None:
        for seat in seats:
            seat["fleet_raid_cards_per_100_rolls"] = _ci(fleet[seat_df["seat"].to_numpy() == seat["seat"]])
    first = seat_df.filter(pl.col("seat") == 1)["income_total"].to_numpy()
    last = seat_df.filter(pl.col("seat") == exp.players)["income_total"].to_numpy()
    spread = board_df["seat_spread"].to_numpy()
    fairest, least = int(np.argmin(spread)), int(np.argmax(spread))
    return {
        "experiment": "seafarers balance",
        "scenario": {"slug": s.slug, "name": s.name, "name_pt": s.name_pt, "players": s.players,
                     "status": s.status, "reconstructed": s.reconstructed, "sources": list(s.sources),
                     "notes": list(s.notes)},
        "heuristic": exp.heuristic.label, "boards": board_df.height, "rolls": exp.rolls,
        "sequences": exp.sequences, "seed": exp.seed, "gold_policy": gold_policy, "spend_to": exp.spend_to,
        "max_clump": exp.plan.max_clump,
        "seats": seats,
        "first_vs_last": stats.paired_difference(first, last) if len(first) > 1 else None,
        "board_stats": {c: _spread(board_df[c]) for c in BOARD_COLUMNS if c not in ("robber_hex",)},
        "fairest_board": _board_seats(seat_df, fairest, float(spread[fairest])),
        "least_fair_board": _board_seats(seat_df, least, float(spread[least])),
        "layouts": [{"scenario": x.slug, "players": x.players, "status": x.status} for x in list_scenarios()],
        "pirate_fleet": None if fleet is None else {
            "simulated": False, "path_hexes": len(s.pirate.fleet_path), "raid_rule": "each",
            "warning": fleet_warning([seat["fleet_raid_cards_per_100_rolls"]["mean"] for seat in seats])},
        **provenance("seafarers", exp.seed, None, assumptions(exp)),
    }


def fleet_raid_risk(scenario: Scenario, seat_df: pl.DataFrame) -> np.ndarray | None:
    """Per seat row: the cards the pirate fleet's raids take per 100 rolls in the long run from the seat's
    set-up settlements (None for a scenario without a fleet). The fleet lands on each path hex with its
    stationary probability; a seat with a building at the landing hex is raided (rule 'each'); at set-up
    nobody has warships, so every raid is lost (the lower die is at least 1): 1 card (no cities yet), as
    long as the seat holds one (analyzer.seafarers.pirates.raid_risk, summed over the seat's hexes)."""
    path = scenario.pirate.fleet_path
    if not path:
        return None
    topo = scenario.topology
    at_path = np.zeros((topo.n_corner + 1, len(path)), bool)  # last row: the -1 of a missing settlement
    for i, h in enumerate(path):
        at_path[topo.hex_corners[h][topo.hex_corners[h] >= 0], i] = True
    corners = seat_df.select([f"corner_{k}" for k in range(1, MAX_SETTLEMENTS + 1)]).to_numpy()
    raided = at_path[corners].any(axis=1)  # a landing raids a seat once, however many of its buildings are there
    return 100 * raided @ fleet_stationary(len(path))


def fleet_warning(per_seat: list[float]) -> str:
    lo, hi = min(per_seat), max(per_seat)
    figure = f"{lo:.1f}" if round(lo, 1) == round(hi, 1) else f"{lo:.1f}–{hi:.1f}"
    return (f"The pirate fleet's raids are not simulated here: from their set-up settlements the seats would lose "
            f"about {figure} cards per 100 rolls to them (mean per seat, long run, no warships, while they hold "
            "cards); see `tabletop seafarers pirates`.")


def _board_seats(seat_df: pl.DataFrame, board: int, spread: float) -> dict:
    """One board's seats: expected income per roll (no robber), and the seat it favours most."""
    expected = seat_df.filter(pl.col("board") == board).sort("seat")["expected_total"].to_list()
    return {"board": board, "seat_spread": spread, "expected": expected,
            "favoured_seat": int(np.argmax(expected)) + 1}


def assumptions(exp: Balance) -> list[str]:
    s = exp.scenario
    out = [
        *deal_assumptions(s),
        f"Draft: snake order, {'three' if s.setup.settlements == 3 else 'two'} settlements per seat, every seat "
        f"using the same heuristic ({exp.heuristic.label}); ties broken at random; a coastal settlement takes a "
        "ship instead of a road, never on a coast facing the frame (seed, scenarios 2 and 3). Nobody builds during "
        "the rolls.",
        "Starting resources: every roll sequence starts with each seat holding one card per producing hex at the "
        f"last settlement it drafted (the {'third' if s.setup.settlements == 3 else 'second'}"
        + ("; never the pre-placed one" if s.markers.fortresses else "")
        + "), as the base game gives them; a gold field there gives a card chosen by the gold policy (the rulebook "
        "does not say; taken like a roll's gold), fog, deserts and hexes without a number give none, and the "
        "robber does not block them. They are not counted as income.",
        "Fog hexes are face down at set-up and stay unexplored during the rolls: they yield nothing.",
        f"Robber: starts as the scenario says ({s.robber.rule}); 'off-board' is modelled as a land hex no seat "
        "touches, which is the same until the first 7. The roller moves it to hurt the leader most while "
        "hurting himself least (kernels/catan/production.py)"
        + (", never into the scenario's forbidden zones ("
           + ", ".join(s.zones[z].title for z in s.robber.forbidden_zones) + ")" if s.robber.forbidden_zones else "")
        + ("" if s.robber.return_to_start else ", never back to its start hex")
        + "; the pirate is not modelled (it does not block hexes).",
        f"Hands: the roller spends down to {exp.spend_to} cards at the end of each turn (a crude stand-in for "
        "building; it only changes discards, steals and gold picks)." if exp.spend_to >= 0 else
        "Hands: nobody spends cards (discards on 7s grow with the rolls).",
        "Gold fields: the seat takes the resource it holds fewest of (policy 'poorest') unless --gold-policy says "
        "otherwise; gold cards count in the income of the resource taken.",
        "Income per roll counts cards received (after the robber, before discards and steals); 'expected' is the "
        "analytic pip sum / 36 without the robber.",
        "Seat figures are means over boards with Student-t 95% intervals (boards are independent); each board's "
        "figure is the mean over its roll sequences.",
    ]
    if s.pirate.fleet_path:
        out.append("Pirate fleet: its raids are NOT simulated here (the rolls are the same as without a fleet); "
                   "the summary gives each seat's long-run raid losses from its set-up settlements "
                   "(seats[].fleet_raid_cards_per_100_rolls); the fleet is simulated by `tabletop seafarers pirates`.")
    if s.harbours.placement == "players":
        out.append("Harbours: the players lay them during preparation, which is not modelled; the board has none "
                   "at set-up, so 'port' scores like 'pips'.")
    elif s.harbours.placement == "gifts":
        out.append("Harbours: gifts won by ships during play, not usable at set-up ('port' scores like 'pips').")
    return out
