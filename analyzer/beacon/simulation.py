"""`simulate`: N games of one policy -> per-game table, summary and the best game's board."""

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analyzer import stats
from analyzer.api_args import PATH, RUN, TEXTS, checked_api
from analyzer.beacon.policies import DEFAULT_POLICY, bot_of, parse_policy
from analyzer.beacon.rules import check_players, load_rules, rules_data
from analyzer.beacon.tiles import TileSet, check_piles, load_tiles, parse_expansions, parse_tiles
from analyzer.command import api_out_dir
from analyzer.job import Job, Statistic
from analyzer.params import check_seed
from analyzer.provenance import provenance
from analyzer.runner import RunOptions, run_job
from kernels import beacon as kb


@dataclass
class SimulationResult:
    summary: dict
    games: pl.DataFrame | None  # None after a streaming run (per_game=False)
    best_layout: dict  # {"row", "col", "tile"} arrays of the best game's board
    tiles: TileSet


@dataclass(frozen=True)
class Setup:
    """Everything the kernel needs for one (players, policy, expansions, tiles) choice."""
    players: int
    policy_label: str
    expansions: tuple[str, ...]
    tiles: TileSet
    kernel_tiles: np.ndarray
    cfg: np.ndarray
    active: np.ndarray
    policy_ids: np.ndarray
    policy_params: np.ndarray
    rules: tuple[tuple[str, bool], ...]  # rules.toml [options] in force, (name, value) in file order

    def changed_rules(self) -> dict[str, bool]:
        """The options switched away from their defaults."""
        options = load_rules().options
        return {name: value for name, value in self.rules if value != options[name].default}


def make_setup(players: int, policy: str, expansions, tiles: TileSet | str | Path | None, rules=None) -> Setup:
    """`rules` switches rules.toml [options]: {name: bool} or "name=value" texts (`--rule`)."""
    check_players(players)
    pol = parse_policy(policy)
    exp = parse_expansions(expansions) if not isinstance(expansions, frozenset) else expansions
    ts = tiles if isinstance(tiles, TileSet) else load_tiles(tiles)
    check_piles(ts, players, exp, load_rules().hand_size[players])
    options = load_rules().choose(rules)
    cfg = load_rules().cfg(players, len(exp), options)
    return Setup(
        players=players, policy_label=pol.label, expansions=tuple(sorted(exp)), tiles=ts,
        kernel_tiles=kernel_tiles(ts), cfg=cfg, active=ts.active(exp).astype(np.uint8),
        policy_ids=np.full(kb.MAX_PLAYERS, pol.spec.code, np.int64),
        policy_params=np.tile(pol.vector(kb.N_PARAMS), (kb.MAX_PLAYERS, 1)), rules=tuple(options.items()),
    )


def kernel_tiles(ts: TileSet) -> np.ndarray:
    """The kernel's tile table: one int32 row per tile (columns kb.TT_*)."""
    tt = np.zeros((ts.n, kb.TT_COLS), np.int32)
    tt[:, kb.TT_LAND:kb.TT_LAND + 4] = ts.edge_land
    tt[:, kb.TT_LAND_MASK] = ts.edge_land @ (1 << np.arange(4))
    tt[:, kb.TT_MASS:kb.TT_MASS + 4] = ts.edge_mass
    tt[:, kb.TT_FEATURE] = ts.feature
    tt[:, kb.TT_PIER_MASK] = ts.pier_mask
    tt[:, kb.TT_OPEN_SEA] = ts.open_sea
    tt[:, kb.TT_BUILDINGS:kb.TT_BUILDINGS + kb.MAX_MASSES] = ts.mass_buildings
    return tt


def _simulate_range(setup: Setup, seed: int, start: int, out: np.ndarray, trace: np.ndarray,
                    layout: np.ndarray):
    """kernels.beacon.simulate_range on a fresh workspace, compiled for the policies' tier."""
    n, tier = setup.tiles.n, kb.policy_tier(setup.policy_ids)
    game = kb.new_workspace(n, kb.grid_size.py_func(n), tier)  # the kernel would compile for this call
    arrays = kb.Setup(setup.kernel_tiles, setup.cfg, setup.active, setup.tiles.hq, setup.policy_ids,
                      setup.policy_params)
    return kb.simulate_range_of(tier)(game, arrays, seed, start, out, trace, layout)


def play_range_fn(setup: Setup, seed: int):
    no_trace, no_layout = np.zeros((0, 5), np.int64), np.zeros((0, 3), np.int64)

    def play_range(start: int, out: np.ndarray) -> None:
        # one array layout for the kernel (C-contiguous): a chunk's column view is copied through,
        # so runs and replays share one compiled signature
        block = out if out.flags.c_contiguous else np.ascontiguousarray(out)
        _simulate_range(setup, seed, start, block, no_trace, no_layout)
        if block is not out:
            out[...] = block
    return play_range


def replay(setup: Setup, seed: int, game: int, trace_len: int = 0, out: np.ndarray | None = None):
    """Re-play one game (same seed, same index -> the same game) for its board and actions; its result
    columns go into `out` (int16 [N_COLS, 1]) when given."""
    layout = np.zeros((setup.tiles.n, 3), np.int64)
    trace = np.zeros((trace_len, 5), np.int64)
    out = np.zeros((kb.N_COLS, 1), np.int16) if out is None else out
    n_placed, n_actions = _simulate_range(setup, seed, game, out, trace, layout)
    board = {"row": layout[:n_placed, 0], "col": layout[:n_placed, 1], "tile": layout[:n_placed, 2]}
    return board, trace[:min(n_actions, trace_len)]


RESULT_DTYPE = "int16"  # the per-game columns (a tile set that could score more is refused: tiles.py)


def beacon_job(setup: Setup, policy: str, seed: int) -> Job:
    """The picklable description of these games that any runner backend (threads, Dask) can play."""
    spec = {"game": "beacon", "players": int(setup.players), "policy": policy.strip(),  # (int: numpy's
            "expansions": list(setup.expansions), "seed": int(seed),  # integers are no JSON)
            "tiles": {"name": setup.tiles.name, "sha256": setup.tiles.sha256, "csv": setup.tiles.to_csv()}}
    if setup.changed_rules():  # (only then: checkpoints of default-rules runs keep their identity)
        spec["rules"] = setup.changed_rules()
    return Job(play_range_for_spec, spec, kb.N_COLS, RESULT_DTYPE, Statistic(kb.COL_SCORE, "mean", "mean score"))


def setup_for_spec(spec: dict) -> Setup:
    """The Setup a job's spec describes (beacon_job)."""
    tiles = parse_tiles(spec["tiles"]["csv"], spec["tiles"]["name"])
    return make_setup(spec["players"], spec["policy"], ",".join(spec["expansions"]), tiles, spec.get("rules"))


def play_range_for_spec(spec: dict):
    """Job builder (runs on the process that plays, e.g. a Dask worker): spec -> play_range."""
    return play_range_fn(setup_for_spec(spec), spec["seed"])



EXPANSIONS = TEXTS | frozenset | None  # 'windmills,piers' or the names in a list
RULES = dict[str, bool] | TEXTS | None  # {name: bool} or "name=value" texts


@checked_api("beacon.simulate", run=RUN, expansions=EXPANSIONS, tiles=TileSet | PATH | None, rules=RULES,
             out=PATH | None)
def simulate(players: int = 1, policy: str = DEFAULT_POLICY, games: int | None = None, seed: int = 0,
             expansions=None, tiles=None, threads: int | None = None, chunk_size: int | None = None,
             progress: bool = False, command: str | None = None, rules=None, out=None,
             **scale) -> SimulationResult:
    """Simulate games; returns summary (dict), per-game table and the best board; with ``out`` (a folder)
    also writes what `tabletop beacon simulate --out` writes: games.parquet, summary.json, the report.

    ``policy`` defaults to the lookahead (policies.DEFAULT_POLICY); ``games`` to 10,000. ``rules``
    switches rules.toml [options], e.g. ``{"solo_keep_on_empty_pile": True}``. ``scale`` takes the other
    analyzer.runner.RunOptions fields: precision, min_games, max_games (run to a CI half-width),
    dask_local or scheduler (Dask), checkpoint (resumable), per_game=False (streaming aggregates only;
    ``games`` table is None).

    >>> r = simulate(players=1, policy="greedy", games=1000, seed=1, out="runs/greedy")
    >>> r.summary["mean"], r.games.columns[:2]
    """
    check_seed(seed)
    options = RunOptions(games=games, threads=threads, chunk_size=chunk_size, progress=progress, **scale).checked()
    setup = make_setup(players, policy, expansions, tiles, rules)
    out = api_out_dir(out, "beacon simulate")  # (every input checked before any game)
    run = run_job(beacon_job(setup, policy, seed), options, aggregate=True, notes={"command": command})
    agg = run.aggregate
    values, counts = agg.histogram(kb.COL_SCORE)
    ranks = agg.category_counts(kb.COL_RANK, len(load_rules().rank_names))
    summary = summarize_counts(setup, values, counts, ranks, seed, run.info["workers"], run.wall, run.played)
    summary["columns"] = {name: agg.describe(k) for k, name in enumerate(kb.COLUMN_NAMES) if name != "rank"}
    summary["score_histogram"] = {"values": values.tolist(), "counts": counts.tolist()}
    summary["run"] = run.info
    best = agg.argmax(kb.COL_SCORE)
    best_layout, _ = replay(setup, seed, best)
    summary["best_game"] = {"game": best, "score": summary["max"]}
    if command:
        summary["command"] = command
    table = games_table(run.columns) if run.columns is not None else None
    result = SimulationResult(summary, table, best_layout, setup.tiles)
    if out is not None:
        write_simulation(out, result)
    return result


def write_simulation(out: Path, result: SimulationResult) -> None:
    """games.parquet (unless streamed), summary.json and the report into `out`, all or nothing."""
    from analyzer.command import results_folder, write_summary
    from analyzer.io import atomic_write_parquet
    from reports.beacon.simulate import write_simulate_report

    # a streaming run has no per-game table, and an older one would not match its summary
    with results_folder(out, stale=("games.parquet",) if result.games is None else ()) as stage:
        if result.games is not None:
            atomic_write_parquet(stage / "games.parquet", result.games)
        write_summary(stage, result.summary, "beacon simulate")
        write_simulate_report(stage, result.summary, result.games, result.best_layout, result.tiles)


def games_table(cols: np.ndarray) -> pl.DataFrame:
    """The per-game table: game index, every result column, rank as an ordered category."""
    names = list(load_rules().rank_names)
    frame = {"game": np.arange(cols.shape[1], dtype=np.int64)}
    frame.update({name: cols[k] for k, name in enumerate(kb.COLUMN_NAMES) if name != "rank"})
    rank = pl.Series("rank", names, dtype=pl.Enum(names)).gather(cols[kb.COL_RANK])
    return pl.DataFrame(frame).with_columns(rank)


def summarize(setup: Setup, scores: np.ndarray, ranks: np.ndarray, seed: int, threads: int, wall: float,
              played: int) -> dict:
    """Summary of per-game score and rank arrays; `played` of the games in `wall` seconds (the rest resumed)."""
    values, counts = np.unique(np.asarray(scores, np.int64), return_counts=True)
    rank_counts = np.bincount(np.asarray(ranks, np.int64), minlength=len(load_rules().rank_names))
    return summarize_counts(setup, values, counts, rank_counts, seed, threads, wall, played)


def summarize_counts(setup: Setup, score_values, score_counts, rank_counts, seed: int, threads: int,
                     wall: float, played: int) -> dict:
    """Summary from a score histogram and rank-band counts (exact, so both run paths agree)."""
    rules = load_rules()
    m = stats.mean_ci_counts(score_values, score_counts, support=stats.NON_NEGATIVE)
    bounds = rules.rank_bounds(len(setup.expansions))
    return {
        "games": m["n"],
        "mean": m["mean"], "std": m["std"], "sem": m["sem"], "ci95": m["ci95"],
        "percentiles": stats.percentiles_counts(score_values, score_counts),
        "min": int(score_values[0]), "max": int(score_values[-1]),
        "rank_bands": {"names": list(rules.rank_names), "lower_bounds": bounds,
                       "per_expansion": rules.shift_per_expansion},
        "rank_probabilities": stats.category_probabilities_counts(rank_counts, list(rules.rank_names)),
        "policy": setup.policy_label, "bot": bot_of(setup.policy_label), "players": setup.players,
        "expansions": list(setup.expansions),
        "tile_set": {"name": setup.tiles.name, "sha256": setup.tiles.sha256,
                     "reconstruction": setup.tiles.reconstruction, "n_active": int(setup.active.sum())},
        "rule_options": dict(setup.rules), "rules_data": rules_data(),
        **provenance("beacon", seed, None, rules.assumption_texts(dict(setup.rules))),
        "threads": threads, "wall_seconds": round(wall, 3),
        "games_per_second": round(played / wall, 1) if played and wall > 0 else None,  # (all resumed: none)
    }
