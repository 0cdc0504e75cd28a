"""`tabletop seafarers play`: full games of a scenario by named bots, on the runner (threads, Dask, checkpoints).

Game g of seed s is played on board g of s (`--boards random`, the scenario's variable set-up) or on the printed
board (`--boards fixed`), with the dice, deck and steals of (s, g) (docs/seafarers/full_game.md), by the
kernel kernels/catan/game.py. One row of games.parquet per game and seat.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import polars as pl

from analyzer.errors import UserError
from analyzer.job import Job, Statistic
from analyzer.lineup import rotations, seat_arms
from analyzer.runner import RunOptions
from analyzer.seafarers.bots import bot_name, bot_vectors, parse_bot
from kernels.catan import game as kg

__all__ = ["PLAY_SCENARIOS", "PlayResult", "check_play", "play_games", "play_job"]

PLAY_SCENARIOS = ("base", "new-shores", "four-islands", "fog-islands", "through-the-desert", "new-world",
                  "forgotten-tribe", "cloth-for-catan", "pirate-islands", "wonders-of-catan")
BOARDS = ("random", "fixed")
MAX_GAMES = 10**8
HUMAN_ROLLS = (60, 70)  # research note catan_engines.md: about 70 rolls per human 4-player game (colonist.io)
SEAT_1_WINS = Statistic(kg.R_WINNER, "proportion", "win rate of seat 1", value=0)  # what --precision measures


def check_play(scenario: str, players: int, bots: str | list[str], games: int | None, seed: int, boards: str) -> list:
    """The parsed bots; one-line UserError on anything a game cannot be played with (games None: a --precision
    run, sized by the runner)."""
    from analyzer.params import check_seed
    from analyzer.seafarers.limits import check_range
    from analyzer.seafarers.scenarios import load_scenario

    load_scenario(scenario, players)  # an unknown slug or player count says so (every scenario plays in full)
    if boards not in BOARDS:
        raise UserError(f"--boards must be random or fixed, not '{boards}'")
    if boards == "fixed" and scenario == "fog-islands":
        raise UserError("--boards fixed: the Fog Islands have no printed fog (its hexes are drawn from the stack in "
                        "play); use --boards random")
    if games is not None:
        check_range("--games", games, 1, MAX_GAMES, "runs longer than that are split by seed")
    check_seed(seed)
    return seat_arms(bots, players, parse_bot, "--bots", "bot")


def play_job(scenario: str, players: int, bots: list, seed: int, boards: str, rules_text: str, rule=()) -> Job:
    """Game g of this job is full game g: the int32 result columns of kernels/catan/game.py (R_*, then per seat).
    `rule`: the rules [options] switched, as "name=value" texts."""
    spec = {"game": "seafarers", "experiment": "play", "scenario": scenario, "players": int(players),
            "bots": [b.label for b in bots], "seed": int(seed), "boards": boards, "rules": rules_text,
            "rule": list(rule or ())}
    return Job(play_range, spec, kg.N_RESULT_COLS, "int32", SEAT_1_WINS)


def _tables(spec: dict):
    from analyzer.seafarers.boards import deal_plan
    from analyzer.seafarers.full_rules import load_rules
    from analyzer.seafarers.scenarios import load_scenario

    scenario = load_scenario(spec["scenario"], spec["players"])
    return scenario, load_rules(text=spec["rules"], rule=spec.get("rule")), deal_plan(scenario)


def play_range(spec: dict):
    """Job builder: games start .. start + out.shape[1] - 1 into out's columns."""
    from analyzer.seafarers.boards import generate_boards
    from analyzer.seafarers.play import deal_board, deal_static, fresh_board, kernel_board, play_chunk, play_dealt_chunk
    from analyzer.seafarers.table import game_table, printed_board

    scenario, rules, plan = _tables(spec)
    policies, params = bot_vectors([parse_bot(b) for b in spec["bots"]])
    if spec["boards"] == "fixed":
        fixed = kernel_board(game_table(scenario, rules, *printed_board(scenario)))
    else:  # each chunk fills its own copy of one Board per game in numba (kernels/catan/table.py)
        static = deal_static(scenario)
        template = deal_board(scenario, rules, static)

    def play(start: int, out: np.ndarray) -> None:
        n = out.shape[1]
        block = np.zeros((kg.N_RESULT_COLS, max(n, 1)), np.int64)
        if spec["boards"] == "fixed":
            play_chunk(fixed, spec["seed"], start, policies, params, block)
        else:  # n == 0, the runner's warm-up, compiles on one scratch game
            dealt = generate_boards(plan, max(n, 1), spec["seed"], first=start)
            play_dealt_chunk(fresh_board(template), static, spec["seed"], start, dealt, policies, params, block)
        out[:] = block[:, :n]
    return play


REPLAYED = 500  # games played again for the VP-over-rolls plot


def replay(spec: dict, games) -> list[dict]:
    """Games of a play job played again one by one (the same games: seed, board, dice, bots): per game its result
    columns, each seat's VP at every roll (int [players, rolls], the first kg.MAX_TRACK rolls) and the board at the
    end, drawn as reports.seafarers.hexplot wants it. Through the kernels play_range compiled for the job."""
    from analyzer.seafarers.boards import generate_boards
    from analyzer.seafarers.play import deal_board, deal_static, fresh_board, kernel_board, play_chunk, play_dealt_chunk
    from analyzer.seafarers.scenarios import HARBOUR_TYPES
    from analyzer.seafarers.table import game_table, printed_board

    scenario, rules, plan = _tables(spec)
    policies, params = bot_vectors([parse_bot(b) for b in spec["bots"]])
    players = spec["players"]
    if spec["boards"] != "fixed":
        static = deal_static(scenario)
        template = deal_board(scenario, rules, static)
    out = []
    for g in games:
        block = np.zeros((kg.N_RESULT_COLS, 1), np.int64)
        if spec["boards"] == "fixed":
            terrain, number, harbour = printed_board(scenario)
            board = kernel_board(game_table(scenario, rules, terrain, number, harbour))
            game = kg.new_game(board)
            play_chunk(board, spec["seed"], int(g), policies, params, block, game)
        else:
            dealt = generate_boards(plan, 1, spec["seed"], first=int(g))
            terrain, number, harbour = dealt.terrain[0], dealt.number[0], dealt.harbour[0]
            board = fresh_board(template)
            game = kg.new_game(board)
            play_dealt_chunk(board, static, spec["seed"], int(g), dealt, policies, params, block, game)
        rolls = min(int(game.st[kg.ST_ROLLS]), kg.MAX_TRACK)
        owner, ship = game.edge_owner, game.edge_ship
        harbours = [(site.land, site.sea, HARBOUR_TYPES[k]) for site, k in zip(scenario.harbours.sites, harbour)]
        if scenario.harbours.placement == "gifts":  # a gift taken is no longer on its islet (placed: laid_harbours)
            first = game.gift_state.shape[1] - len(harbours)
            harbours = [h for j, h in enumerate(harbours) if game.gift_state[0, first + j] < 0]  # (row GIFT_OWNER)
        out.append({"game": int(g), "result": block[:, 0].copy(), "vp": game.vp_track[:players, :rolls].copy(),
                    "drawing": {"terrain": np.asarray(terrain), "number": np.asarray(number),
                                "harbours": harbours + laid_harbours(board, game),
                                "settlements": [(int(c), int(o)) for c, o in enumerate(game.corner_owner) if o >= 0],
                                "pieces": [(int(e), int(o), "ship" if ship[e] else "road")
                                           for e, o in enumerate(owner) if o >= 0]}})
    return out


def laid_harbours(board, game) -> list[tuple[int, int, str]]:
    """The harbours the players laid in a played game (New World) or placed as gifts won (the Forgotten Tribe), as
    drawings want them: (land, sea, type)."""
    from analyzer.seafarers.scenarios import HARBOUR_TYPES

    out = []
    placed = list(zip(game.harbour_edges.tolist(), game.harbour_stack.tolist()))
    placed += list(zip(game.gift_state[1].tolist(), board.gifts[2].tolist()))  # (rows GIFT_LAID, GIFT_ITEM)
    for e, k in placed:
        if e >= 0:
            sea = int(kg.harbour_sea(board, game, e))
            land = int(board.edge_hexes[e, 0] if board.edge_hexes[e, 1] == sea else board.edge_hexes[e, 1])
            out.append((land, sea, HARBOUR_TYPES[k]))
    return out


def vp_over_rolls(replayed: list[dict], players: int) -> dict:
    """Median and quartiles of each seat's VP at each roll over the replayed games; a finished game keeps its
    final VP (so the curves end at the winners' target), up to the roll that 95% of the games reach."""
    lengths = np.array([r["vp"].shape[1] for r in replayed])
    horizon = max(1, int(np.percentile(lengths, 95)))
    vp = np.zeros((len(replayed), players, horizon))
    for i, r in enumerate(replayed):
        track = r["vp"][:, :horizon]
        vp[i, :, :track.shape[1]] = track
        vp[i, :, track.shape[1]:] = track[:, -1:] if track.shape[1] else 0
    q = np.percentile(vp, [25, 50, 75], axis=0)
    return {"games": len(replayed), "rolls": list(range(1, horizon + 1)),
            "seats": [{"q25": q[0, s].tolist(), "median": q[1, s].tolist(), "q75": q[2, s].tolist()}
                      for s in range(players)]}


@dataclass(frozen=True)
class PlayResult:
    summary: dict
    games: pl.DataFrame | None  # one row per game and seat (None: a --no-per-game run)
    boards: dict  # "longest", "shortest": the replayed game's {"game", "rolls", "drawing"} (rotation 0)


def play_games(scenario: str, players: int, bots: list[str], games: int, seed: int, boards: str = "random",
               rules_file=None, rotate: bool = False, command: str = "", rule=None, **run) -> PlayResult:
    """Play `games` full games (each once per seat rotation with `rotate`); the summary (seat and bot win rates
    with CIs, paired bot differences under rotation, game length, VP sources) and the per-game table (None with
    per_game=False: every figure then comes from streaming aggregates, in flat memory)."""
    from analyzer.arms import arms_run_info, run_arms
    from analyzer.seafarers.full_rules import rules_for
    from analyzer.seafarers.scenarios import load_scenario

    arms = check_play(scenario, players, bots, games, seed, boards)
    text, rules = rules_for(rules_file, rule, [load_scenario(scenario, players)])
    rules_name = rules.source
    if rotate and run.get("precision") is not None:
        raise UserError("--precision with --rotate: every rotation must play the same games; give --games")
    if rotate and run.get("per_game") is False:
        raise UserError("--no-per-game with --rotate: the paired comparison of the bots needs every game's result; "
                        "drop one of them")
    options = RunOptions(games=games, label="games", **run).checked(default_games=1000)
    seatings = rotations(arms, rotate)
    jobs = [(f"rotation {r}" if rotate else "games", play_job(scenario, players, seating, seed, boards, text, rule))
            for r, seating in enumerate(seatings)]
    t0 = time.perf_counter()
    runs = run_arms(jobs, options, aggregate=True)
    wall = time.perf_counter() - t0
    table = None
    if options.per_game:
        table = pl.concat([games_table(run.columns, players, seating, r) for r, (run, seating) in
                           enumerate(zip(runs, seatings))]).sort(["game", "rotation", "seat"])
    summary = summarize(scenario, players, arms, seed, boards, rules, rules_name, [r.aggregate for r in runs], table,
                        arms_run_info(runs), wall, command, rotate)
    first = runs[0].aggregate  # rotation 0
    summary["vp_over_rolls"] = vp_over_rolls(replay(jobs[0][1].spec, range(min(first.games, REPLAYED))), players)
    ends = {}
    for name, g in (("longest", first.argmax(kg.R_ROLLS)), ("shortest", first.argmin(kg.R_ROLLS))):
        again = replay(jobs[0][1].spec, [g])[0]
        ends[name] = {"game": g, "rolls": int(again["result"][kg.R_ROLLS]),
                      "capped": bool(again["result"][kg.R_CAPPED]), "drawing": again["drawing"]}
    summary["extreme_games"] = {name: {k: e[k] for k in ("game", "rolls", "capped")} for name, e in ends.items()}
    return PlayResult(summary, table, ends)


def games_table(cols: np.ndarray, players: int, arms: list, rotation: int = 0) -> pl.DataFrame:
    n = cols.shape[1]
    frames = []
    for seat in range(players):
        base = kg.N_GAME_COLS + seat * kg.N_SEAT_COLS
        data = {"game": np.arange(n, dtype=np.int64), "rotation": np.full(n, rotation, np.int8),
                "seat": np.full(n, seat + 1, np.int8), "bot": [bot_name(arms[seat])] * n,
                "won": cols[kg.R_WINNER] == seat, "winner": (cols[kg.R_WINNER] + 1).astype(np.int8),
                "turns": cols[kg.R_TURNS].astype(np.int32), "rolls": cols[kg.R_ROLLS].astype(np.int32),
                "sevens": cols[kg.R_SEVENS].astype(np.int32), "capped": cols[kg.R_CAPPED] == 1,
                "cloth_end": cols[kg.R_CLOTH_END] == 1}
        for k, name in enumerate(kg.SEAT_COLS):
            data[name] = cols[base + k].astype(np.int16)
        frames.append(pl.DataFrame(data))
    return pl.concat(frames)


def _share(rows: pl.DataFrame) -> dict:
    """Wins of some seat-games: the share with a 95% CI clustered by game (rotations of a game share its luck)."""
    from analyzer.stats import clustered_wilson_ci

    wins = int(rows["won"].sum())
    lo, hi = clustered_wilson_ci(rows["won"].to_numpy(), rows["game"].to_numpy())
    return {"seat_games": rows.height, "wins": wins, "p_win": wins / rows.height, "ci95": [lo, hi]}


def bot_differences(table: pl.DataFrame, labels: list[str]) -> dict:
    """Under rotation, per pair of bots: the per-game difference of their win rates (each over the seat-games it
    played in that game's rotations), a paired t interval over games."""
    from analyzer.stats import paired_difference

    per_game = (table.group_by(["game", "bot"]).agg(pl.col("won").mean().alias("p")).sort("game"))
    out = {}
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            pa = per_game.filter(pl.col("bot") == a)["p"].to_numpy()
            pb = per_game.filter(pl.col("bot") == b)["p"].to_numpy()
            out[f"{a} vs {b}"] = {"a": a, "b": b, **paired_difference(pa, pb)}
    return out


class Pooled:
    """Histograms of result columns pooled over the runs (the rotations) that played them: exact figures of every
    game without the per-game table."""

    def __init__(self, aggs: list):
        self.aggs = aggs

    def histogram(self, columns) -> tuple[np.ndarray, np.ndarray]:
        """(values, counts) over every run of the (run, column) pairs given."""
        totals: dict[int, int] = {}
        for r, k in columns:
            for v, c in zip(*self.aggs[r].histogram(k)):
                totals[int(v)] = totals.get(int(v), 0) + int(c)
        values = np.array(sorted(totals), np.int64)
        return values, np.array([totals[v] for v in values.tolist()], np.int64)

    def count(self, columns, value: int) -> int:
        values, counts = self.histogram(columns)
        return int(counts[values == value].sum())

    def mean(self, columns) -> float:
        values, counts = self.histogram(columns)
        return float(values @ counts / counts.sum())

    def every_run(self, k: int) -> list[tuple[int, int]]:
        return [(r, k) for r in range(len(self.aggs))]

    def seat(self, seat: int, name: str) -> list[tuple[int, int]]:
        """Every run's column of the (0-based) seat's `name` (kg.SEAT_COLS)."""
        return self.every_run(kg.N_GAME_COLS + seat * kg.N_SEAT_COLS + kg.SEAT_COLS.index(name))


def summarize(scenario: str, players: int, arms: list, seed: int, boards: str, rules, rules_name: str, aggs: list,
              table: pl.DataFrame | None, run_info: dict, wall: float, command: str, rotate: bool = False) -> dict:
    """The summary from the runs' aggregates (aggs: a ColumnStats per rotation, rotation r seated as
    rotations(arms, rotate)[r]); under rotation the win-rate CIs, clustered by game across rotations, and the paired
    bot differences come from the per-game table."""
    from analyzer.provenance import provenance
    from analyzer.seafarers.scenarios import load_scenario
    from analyzer.stats import clustered_wilson_ci_counts, mean_ci_counts, percentiles_counts, wilson_ci

    s = load_scenario(scenario, players)
    pool = Pooled(aggs)
    per_run = aggs[0].games
    n = per_run * len(aggs)  # games played (a rotation of a game is a game)
    winners = pool.every_run(kg.R_WINNER)
    seatings = rotations(arms, rotate)

    def share(seat_runs: list[tuple[int, int]], rows: pl.Expr) -> dict:
        """Wins of the seat-games (run, 0-based seat) with a 95% CI clustered by game (under rotation, from the
        per-game table's `rows`)."""
        if rotate:
            return _share(table.filter(rows))
        wins = sum(pool.count([(r, kg.R_WINNER)], seat) for r, seat in seat_runs)
        per_game = len(seat_runs)  # one run: a game's seats of this bot are one cluster, at most one of them wins
        lo, hi = clustered_wilson_ci_counts([0, 1], [per_run - wins, wins], per_game)
        return {"seat_games": per_run * per_game, "wins": wins, "p_win": wins / (per_run * per_game),
                "ci95": [lo, hi]}

    seats = []
    for seat in range(players):
        seats.append({"seat": seat + 1, "bot": bot_name(arms[seat]) if not rotate else "every bot in turn",
                      **share([(r, seat) for r in range(len(aggs))], pl.col("seat") == seat + 1),
                      "vp": mean_ci_counts(*pool.histogram(pool.seat(seat, "vp"))),
                      "vp_sources": {c: pool.mean(pool.seat(seat, c)) for c in vp_columns(s)},
                      "pieces": {c: pool.mean(pool.seat(seat, c)) for c in ("roads", "ships", "settlements",
                                                                             "cities")}})
    labels = sorted({bot_name(a) for a in arms})
    by_bot = {label: share([(r, seat) for r, seating in enumerate(seatings) for seat in range(players)
                            if bot_name(seating[seat]) == label], pl.col("bot") == label) for label in labels}
    rolls = pool.histogram(pool.every_run(kg.R_ROLLS))
    capped = pool.count(pool.every_run(kg.R_CAPPED), 1)
    summary = provenance("seafarers", seed, command, assumptions(s, arms, boards, rules, rules_name, rotate))
    summary.update({
        "experiment": "seafarers play", "scenario": {"slug": s.slug, "name": s.name, "players": players,
                                                     "vp_target": s.victory.target},
        "games": per_run, "games_played": n, "rotate": rotate, "boards": boards,
        "rules": rules_name, "rules_data": rules.data_file(), "rule_options": dict(rules.chosen),
        "bots": [{"label": bot_name(a), "spec": a.label, "fair": a.spec.fair, "about": a.spec.description}
                 for a in arms],
        "seats": seats, "by_bot": by_bot, "fair_share": 1 / players,
        "bot_differences": bot_differences(table, labels) if rotate and len(labels) > 1 else {},
        "decided": n - pool.count(winners, -1),
        "capped": {"games": capped, "share": capped / n, "ci95": list(wilson_ci(capped, n))},
        "turn_cap": rules.turn_cap,
        **({"cloth_end": cloth_end(pool, n, s.victory.end_villages),
            "cloth": [pool.mean(pool.seat(seat, "cloth")) for seat in range(players)]}
           if s.victory.cloth_per_vp else {}),
        **({"wonders": wonder_figures(pool, n, players, s, rules)} if s.markers.wonders else {}),
        "rolls": {**mean_ci_counts(*rolls), "percentiles": percentiles_counts(*rolls),
                  "histogram": {"rolls": rolls[0].tolist(), "games": rolls[1].tolist()}},
        "turns": mean_ci_counts(*pool.histogram(pool.every_run(kg.R_TURNS))),
        "human_rolls": list(HUMAN_ROLLS),
        "games_per_second": n / wall if wall > 0 else None, "wall_seconds": wall,
        "run": run_info,
    })
    return summary


SILENT_DEFAULTS = ("Defaults where the rulebook is silent (docs/seafarers/full_game.md): a resource the bank cannot "
                   "pay to everyone goes to nobody unless one player alone is owed it; a year of plenty only for "
                   "cards the bank has; a corner touching two bonus territories counts for its lowest-index hex; a "
                   "game still running after the turn cap stops without a winner (flagged).")


def vp_columns(s) -> tuple[str, ...]:
    """The VP sources a scenario's reports show, those it can give: island bonuses only where it pays them, the
    longest trade route only where its card is played, the largest army and VP cards except in the Pirate Islands
    (knights become warships there, and so do VP cards, or they are set aside), cloth only where cloth is traded,
    Catan chits only where there are any."""
    shown = {"vp_island_bonus": bool(s.victory.island_bonus), "vp_longest_route": s.longest_route,
             "vp_largest_army": not s.markers.fortresses, "vp_vp_cards": not s.markers.fortresses,
             "vp_cloth": bool(s.victory.cloth_per_vp),
             "vp_chits": bool(s.markers.vp_chit_edges)}
    return tuple(c for c in kg.VP_COLS if shown.get(c, True))


def option_texts(rules, scenarios) -> list[str]:
    """The sentences of the rules options in force that apply to any of `scenarios` (full_rules.option_scope)."""
    from analyzer.seafarers.full_rules import option_scope

    return rules.option_texts(**option_scope(scenarios))


def cloth_end(pool: Pooled, n: int, villages: int) -> dict:
    """Games that ended because only end_villages villages still held cloth (Cloth for Catan), with a Wilson CI."""
    from analyzer.stats import wilson_ci

    k = pool.count(pool.every_run(kg.R_CLOTH_END), 1)
    return {"games": k, "share": k / n, "ci95": list(wilson_ci(k, n)), "villages": villages}


def wonder_figures(pool: Pooled, n: int, players: int, s, rules) -> dict:
    """The Wonders of Catan: the games won by finishing a wonder (a seat at the last stage has won: the game ended
    there), with a Wilson CI; the rest that were won, at the target VP; each seat's mean stages; the share of
    seat-games holding each card at the end."""
    from analyzer.stats import wilson_ci

    stages = rules.wonder_stages
    k = sum(pool.count(pool.seat(seat, "wonder_stage"), stages) for seat in range(players))
    won = n - pool.count(pool.every_run(kg.R_WINNER), -1)
    cards = {w["id"]: sum(pool.count(pool.seat(seat, "wonder"), i + 1) for seat in range(players)) / (n * players)
             for i, w in enumerate(s.markers.wonders)}
    return {"finished": {"games": k, "share": k / n, "ci95": list(wilson_ci(k, n))}, "at_target_vp": won - k,
            "stages": [pool.mean(pool.seat(seat, "wonder_stage")) for seat in range(players)], "cards": cards,
            "stages_to_win": stages}


def wonder_assumptions(s, rules) -> list[str]:
    """The Wonders of Catan's rules as played and the defaults where the rulebook is silent (rules data [wonders])."""
    if not s.markers.wonders:
        return []
    cards = "; ".join(f"{c.id} {list(c.cost)}" for c in rules.wonder_cards)
    return [f"The Wonders of Catan (rulebook, CENÁRIO 8): {len(s.markers.wonders)} wonder cards, claimed in turn by "
            f"whoever first meets each one's requirement (the rulebook's cards); {rules.wonder_stages} stages each, "
            f"5 resources a stage (lumber, brick, wool, grain, ore: {cards}; reconstructed, the rulebook's pictures "
            f"are lost: {rules.wonder_cost_source}); the last stage wins at once, {s.victory.target} VP win only with "
            "more stages than every opponent; a 1 VP chit under every settlement on an islet; no set-up settlement "
            "on the islets, the strait, the wasteland or the '!' corners; robber on a desert, no pirate. Defaults "
            "where the rulebook is silent (rules data [wonders]): " + "; ".join(rules.wonder_notes) + "."]


def cloth_assumptions(s, rules) -> list[str]:
    """Cloth for Catan's rules as played and the defaults where the rulebook is silent (rules data [cloth])."""
    if not s.victory.cloth_per_vp:
        return []
    m = s.markers
    return [f"Cloth for Catan (rulebook, CENÁRIO 6): {len(m.villages)} villages on the islets, {m.cloth_per_village} "
            f"cloth each, {m.cloth_supply} in the common reserve; {s.victory.cloth_per_vp} cloth = 1 VP (an odd cloth "
            f"is no half point); the robber starts on the fields 12 (a random board with no 12 on fields: the "
            f"lowest-index 12 hex) and never enters the islets; the pirate only for a player with a trade route, its "
            f"steal a card or a cloth; no "
            f"longest trade route card (largest army kept); the game also ends when only {s.victory.end_villages} "
            "villages hold cloth. Defaults where the rulebook is silent (rules data [cloth]): "
            + "; ".join(rules.cloth_notes) + "."]


def pirate_assumptions(s, rules) -> list[str]:
    """The Pirate Islands' rules as played and the defaults where the rulebook is silent (rules data [pirates])."""
    if not s.markers.fortresses:
        return []
    return [f"The Pirate Islands (rulebook, CENÁRIO 7): {s.victory.target} VP and one's own fortress conquered to win; "
            f"a fortress holds {s.markers.fortress_strength} chits; the fleet circles {len(s.pirate.fleet_path)} sea "
            "hexes by the lower die and raids before the production; no robber, no longest trade route or largest "
            "army card; the printed board (harbours shuffled). Defaults where the rulebook is silent (rules data "
            "[pirates]): " + "; ".join(rules.pirate_notes) + "."]


def assumptions(s, arms: list, boards: str, rules, rules_name: str, rotate: bool = False) -> list[str]:
    from analyzer.seafarers.full_rules import has_gifts

    out = [rules.describe(s),
           SILENT_DEFAULTS,
           *option_texts(rules, [s]),
           *cloth_assumptions(s, rules),
           *pirate_assumptions(s, rules),
           *wonder_assumptions(s, rules),
           "Boards: " + ("board g of the seed, a random legal board of the scenario's variable set-up"
                         if boards == "random" else "the printed layout for every game") + ".",
           f"Scenario: {s.name} ({s.players} players), {s.victory.target} VP to win"
           + (f"; {s.victory.island_bonus} special VP per "
              + ("settlement on a bonus territory, every one" if s.victory.island_bonus_scope == "each_settlement"
                 else "first settlement on each bonus territory") if s.victory.island_bonus else "")
           + f"; layout {s.status}.",
           "Bots: " + "; ".join(f"seat {i + 1} {a.label} ({a.spec.description})" for i, a in enumerate(arms))
           + ". Win rates say how the seats fare under these bots, not under human play.",
           "Seats: " + ("every game is played once per rotation of the bots through the seats, on the same board, "
                        "dice and deck; CIs are clustered by game" if rotate else
                        "the bots keep their seats; with different bots, seat and bot effects are confounded "
                        "(--rotate separates them)") + "."]
    if not s.ships:
        out.append(f"Plain Catan ({s.path.name}): {s.ships_note}")
    if boards == "random":
        from analyzer.seafarers.boards import deal_assumptions

        out += [line for line in deal_assumptions(s) if line.startswith("Red 6/8")]
    if s.reconstructed:
        out.append("The layout is a reconstruction (docs/seafarers/scenarios.md).")
    for name, piece in (("Robber", s.robber), ("Pirate", s.pirate)):
        if piece.rule == "off-board" and piece.note:
            out.append(f"{name}: starts off the board. {piece.note}")
    if s.harbours.placement == "players":
        out.append("Harbours laid by the players (rules data [harbours]): the tokens are shuffled face down; seat 1 "
                   "(the oldest player) lays the first, then each seat in turn; every bot but random lays the token "
                   "it drew on the coast edge whose better dock has the most pips, counting a 2:1 token's own "
                   "resource three times (a dock at its own building +50, a rival's or an unbuildable one nothing); "
                   "random lays it uniformly.")
    if has_gifts(s):
        out.append(f"Gifts on the islet coasts ({s.name}; rules data [gifts]): {len(s.markers.vp_chit_edges)} Catan "
                   f"chits of {rules.chit_vp} VP, {len(s.markers.dev_card_edges)} development cards dealt face down "
                   "from the top of the shuffled deck (the bots never see which), "
                   f"{len(s.harbours.sites)} harbours of shuffled types; the first ship built on a gift's coast takes "
                   "it, a later one nothing; a won harbour is placed at once at a coastal building of its taker if it "
                   "can be (one per sea hex, no two touching a corner), else kept and placed the moment its holder "
                   "has a site (after each settlement it builds); the bots' 'goals' weight values the gifts "
                   "(goals=0: a scenario-blind bot).")
    if any(k == "fog" for k in s.kind):
        out.append("Fog (defaults where the rulebook is silent): a road or ship built, in the draft too, explores "
                   "every fog hex at either end of its edge; a moved ship explores nothing (it is not built); a gold "
                   "hex found pays a card of the finder's choice; the face-down stacks are dealt with the board (the "
                   "same odds as drawing, since no one sees them).")
    return out
