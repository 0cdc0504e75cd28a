"""`compare`: several policies (or tile sets) on the same games -> paired differences.

Common random numbers: game i of seed s deals its tiles from the stream keyed by
(s, i, PURPOSE_DECK), whatever the policy, so every policy that plays games 0 .. G-1 with one seed
sees the same G deals, and two policies' scores are compared game by game (a paired difference).
Different tile sets have different decks: their game i shares the seed, not the deal, so the
pairing is still valid but removes less of the luck of the draw.

An *arm* is one (policy, tile set) combination; every arm plays the same game indices.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np
import polars as pl

from analyzer import stats
from analyzer.api_args import PATH, RUN, TEXTS, checked_api
from analyzer.arms import arms_run_info, check_arm_count, run_arms
from analyzer.beacon.policies import parse_policy
from analyzer.beacon.rules import check_players, load_rules
from analyzer.beacon.simulation import (
    EXPANSIONS,
    RESULT_DTYPE,
    RULES,
    Setup,
    beacon_job,
    games_table,
    make_setup,
    summarize,
)
from analyzer.beacon.tiles import TileSet, load_tiles, parse_expansions
from analyzer.command import api_out_dir
from analyzer.errors import UserError
from analyzer.lineup import split_arms
from analyzer.params import check_seed
from analyzer.runner import RunOptions, RunResult, check_table_memory
from kernels import beacon as kb

__all__ = ["CompareResult", "Arm", "compare", "check_inputs", "plan_arms", "choose_band",
           "pair_sentence", "gap_sentence", "oracle_gaps"]

ORACLE = "oracle"  # the policy that sees the future draw order: a ceiling, not a fair opponent
ORACLE_NOTE = "not a fair policy: it sees the future draw order"
REACH_FLOOR = 0.05  # a sentence's rank band must be reached this often by both arms (if any band is)
BAND_RULE = (f"Each sentence names one rank band: the highest band that both arms reach (that band or "
             f"better) in at least {REACH_FLOOR:.0%} of games — high enough to matter to a player, common "
             f"enough in both arms to be measured well. When no band above the lowest is reached that "
             f"often by both, it names the band whose reach differs most between the two.")
# Summary keys that are the same for every arm: kept once, at the top of summary.json.
_SHARED_KEYS = ("game", "seed", "command", "players", "expansions", "rule_options", "rules_data", "rank_bands",
                "assumptions", "versions")


@dataclass(frozen=True)
class Arm:
    """One (policy, tile set) combination of a comparison."""
    label: str  # unique name used in tables, sentences and summary["policies"]
    policy: str  # the policy's canonical label (every parameter written out)
    policy_text: str  # as the user wrote it, tidied (exact parameter values, for the job)
    tile_set: str  # the tile set's label
    setup: Setup

    @property
    def oracle(self) -> bool:
        return self.setup.policy_label.partition(":")[0] == ORACLE


@dataclass
class CompareResult:
    summary: dict
    games: pl.DataFrame  # one row per (arm, game): game, arm, policy, [tile_set], every result column
    arms: list[Arm]


# --------------------------------------------------------------------------- inputs

def _tidy_policy(text: str) -> str:
    """A policy as the user wrote it, without stray spaces: the arm's name (the canonical label
    spells out every default parameter, too long for a sentence)."""
    name, colon, args = text.strip().partition(":")
    return name.strip() + (":" + ",".join(item.strip() for item in args.split(",")) if colon else "")


def _tile_sets(tiles) -> list[tuple[str, TileSet]]:
    """(label, tile set) for each --tiles value; the label is the file name, or the path where names clash."""
    given = [None] if tiles is None else [tiles] if isinstance(tiles, (str, Path, TileSet)) else list(tiles)
    given = given or [None]
    loaded = [t if isinstance(t, TileSet) else load_tiles(t) for t in given]
    labels = [ts.name for ts in loaded]
    if len(set(labels)) < len(labels):
        labels = [str(t) if isinstance(t, (str, Path)) else f"{ts.name}#{i + 1}"
                  for i, (t, ts) in enumerate(zip(given, loaded))]
    seen: dict[str, str] = {}
    for label, ts in zip(labels, loaded):
        tiles_only = [line for line in ts.to_csv().split("\n") if not line.startswith("#")]  # (not comments, line ends)
        key = "\n".join(tiles_only)
        if key in seen:
            raise UserError(f"--tiles {label} is the same tile set as {seen[key]} (the same tiles, row by row)")
        seen[key] = label
    return list(zip(labels, loaded))


def plan_arms(policies, players: int = 1, expansions=None, tiles=None, rules=None) -> list[Arm]:
    """Check every input and build the arms (policies x tile sets), before any game is played."""
    check_players(players)
    texts = [_tidy_policy(t) for t in split_arms(policies, "--policies", "policy")]
    parsed = [parse_policy(t) for t in texts]
    first: dict[str, str] = {}
    for text, pol in zip(texts, parsed):
        if pol.label in first:
            earlier = first[pol.label]
            raise UserError(f"--policies: {text} is given twice" if text == earlier else
                            f"--policies: {text!r} is the same policy as {earlier!r} (every parameter equal)")
        first[pol.label] = text
    exp = parse_expansions(expansions)
    tile_sets = _tile_sets(tiles)
    check_arm_count(len(texts) * len(tile_sets), "--policies" if len(tile_sets) == 1 else
                    f"--policies ({len(texts)}) x --tiles ({len(tile_sets)})")
    arms = []
    for tile_label, ts in tile_sets:
        for text, pol in zip(texts, parsed):
            if len(tile_sets) == 1:
                label = text
            elif len(parsed) == 1:
                label = tile_label
            else:
                label = f"{text} @ {tile_label}"
            arms.append(Arm(label, pol.label, text, tile_label, make_setup(players, text, exp, ts, rules)))
    if len(arms) < 2:
        raise UserError(f"compare needs at least two arms: give two or more policies (--policies a,b) "
                        f"or two or more --tiles files; got only {arms[0].label}")
    return arms


def check_inputs(policies, players: int = 1, games: int | None = None, seed: int = 0, expansions=None,
                 tiles=None, threads: int | None = None, chunk_size: int | None = None, progress: bool = False,
                 rules=None, **scale) -> tuple[list[Arm], RunOptions]:
    """Every input of ``compare`` checked (one-line UserErrors) before anything runs: (arms, run options)."""
    check_seed(seed)
    options = _checked_options(RunOptions(games=games, threads=threads, chunk_size=chunk_size,
                                          progress=progress, **scale))
    arms = plan_arms(policies, players, expansions, tiles, rules)
    check_table_memory(options.games, kb.N_COLS, np.dtype(RESULT_DTYPE).itemsize, tables=len(arms),
                       instead="ask for fewer games")
    return arms, options


def _checked_options(options: RunOptions) -> RunOptions:
    if options.checkpoint is not None and (Path(options.checkpoint) / "manifest.json").exists():
        raise UserError(f"--checkpoint {options.checkpoint} holds a simulate run's checkpoint; compare keeps one "
                        "sub-folder per arm: use another folder")
    if options.precision is not None:
        raise UserError("compare does not support --precision: every arm must play the same games; give --games")
    if not options.per_game:
        raise UserError("compare needs the per-game results to pair the games; drop --no-per-game")
    return options.checked()


# --------------------------------------------------------------------------- running

@checked_api("beacon.compare", run=RUN, policies=TEXTS, expansions=EXPANSIONS,
             tiles=TileSet | PATH | list[TileSet | PATH] | None, rules=RULES, out=PATH | None)
def compare(policies, players: int = 1, games: int | None = None, seed: int = 0, expansions=None, tiles=None,
            threads: int | None = None, chunk_size: int | None = None, progress: bool = False,
            command: str | None = None, rules=None, out=None, **scale) -> CompareResult:
    """Play the same games with every arm and compare them game by game; with ``out`` (a folder) also
    write what `tabletop beacon compare --out` writes: games.parquet, summary.json, the report.

    ``policies``: policy texts (``["greedy", "lookahead:hole=2.5,keep=1"]``) or one comma-separated
    string; ``tiles``: None (the packaged set), one tile CSV, or a list of them to compare tile sets.
    Arms are every policy on every tile set, all under the same ``rules`` (rules.toml [options], as
    for simulate). ``games`` defaults to 10,000 per arm. ``scale`` takes
    the runner's dask_local, scheduler and checkpoint (one sub-folder per arm); precision and
    per_game=False are refused (pairing needs the same games, kept per game).

    >>> r = compare(["random", "greedy"], games=2000, seed=1, out="runs/cmp")
    >>> r.summary["pairs"][0]["sentence"]
    """
    arms, options = check_inputs(policies, players, games, seed, expansions, tiles, threads, chunk_size,
                                 progress, rules, **scale)
    out = api_out_dir(out, "beacon compare")  # (every input checked before any game)
    runs = run_arms([(arm.label, beacon_job(arm.setup, arm.policy_text, seed)) for arm in arms], options)
    columns = [run.columns for run in runs]
    summary = summarize_comparison(arms, columns, seed, runs)
    if command:
        summary["command"] = command
    result = CompareResult(summary, comparison_table(arms, columns), arms)
    if out is not None:
        write_comparison(out, result)
    return result


def write_comparison(out: Path, result: CompareResult) -> None:
    """games.parquet, summary.json and the report into `out`, all or nothing."""
    from analyzer.command import results_folder, write_summary
    from analyzer.io import atomic_write_parquet
    from reports.beacon.compare import write_compare_report

    with results_folder(out) as stage:
        atomic_write_parquet(stage / "games.parquet", result.games)
        write_summary(stage, result.summary, "beacon compare")
        write_compare_report(stage, result.summary, result.games)


# --------------------------------------------------------------------------- results

def comparison_table(arms: list[Arm], columns: list[np.ndarray]) -> pl.DataFrame:
    """Long per-game table: game, arm, policy, [tile_set], then simulate's columns."""
    labels = [a.label for a in arms]
    several_tile_sets = len({a.tile_set for a in arms}) > 1
    parts = []
    for arm, cols in zip(arms, columns):
        frame = games_table(cols)
        keys = [pl.lit(arm.label).cast(pl.Enum(labels)).alias("arm"), pl.lit(arm.policy_text).alias("policy")]
        if several_tile_sets:
            keys.append(pl.lit(arm.tile_set).alias("tile_set"))
        parts.append(frame.with_columns(keys))
    table = pl.concat(parts)
    front = ["game", "arm", "policy"] + (["tile_set"] if several_tile_sets else [])
    return table.select(front + [c for c in table.columns if c not in front])


def summarize_comparison(arms: list[Arm], columns: list[np.ndarray], seed: int, runs: list[RunResult]) -> dict:
    names = list(load_rules().rank_names)
    per_arm = {}
    shared: dict = {}
    for arm, cols, run in zip(arms, columns, runs):
        s = summarize(arm.setup, cols[kb.COL_SCORE], cols[kb.COL_RANK], seed, run.info["workers"], run.wall,
                      run.played)
        shared = {k: s.pop(k) for k in _SHARED_KEYS}
        s["policy"], s["tile_set"]["label"] = arm.policy, arm.tile_set
        s["fair"] = not arm.oracle
        if arm.oracle:
            s["note"] = ORACLE_NOTE
        s["reach_probabilities"] = dict(zip(names, _reach(cols[kb.COL_RANK], len(names)).tolist()))
        s["columns"] = {name: _describe(cols[k]) for k, name in enumerate(kb.COLUMN_NAMES)
                        if name not in ("score", "rank")}
        per_arm[arm.label] = s
    n_policies, n_tile_sets = len({a.policy for a in arms}), len({a.tile_set for a in arms})
    summary = {
        "games": int(columns[0].shape[1]),
        **{k: shared[k] for k in ("game", "seed", "command", "players", "expansions")},
        "arms": [{"label": a.label, "policy": a.policy, "tile_set": a.tile_set, "fair": not a.oracle}
                 for a in arms],
        "compares": ("policies" if n_tile_sets == 1 else "tile sets" if n_policies == 1
                     else "policies and tile sets"),
        "pairing": _pairing_note(n_tile_sets),
        "policies": per_arm,
        "pairs": [_pair(arms[i], arms[j], columns[i], columns[j], per_arm, names)
                  for i, j in _pair_indices(arms)],
        "band_rule": BAND_RULE,
    }
    gaps = oracle_gaps(arms, columns, per_arm)
    if gaps:
        summary["oracle"] = {"note": f"{ORACLE} is {ORACLE_NOTE}; its gap to a policy is an upper bound on what "
                                     "better play could gain, not a result a player can reach.",
                             "gaps": gaps}
    summary.update({k: shared[k] for k in ("rule_options", "rules_data", "rank_bands", "assumptions", "versions")})
    summary["run"] = arms_run_info(runs)
    return summary


def _pairing_note(n_tile_sets: int) -> str:
    if n_tile_sets == 1:
        return ("Every arm played the same games: game i deals the same tile order to every policy "
                "(common random numbers), so differences are measured game by game.")
    return ("Arms on one tile set played the same games: game i deals them the same tile order (common "
            "random numbers). Arms on different tile sets have different decks, so their game i shares only "
            "the seed: the shuffle draws the same random numbers, which gives sets with the same number of "
            "tiles in play the same permutation of their own tiles (much of the luck still cancels when, say, "
            "one tile is edited), and sets of different sizes unrelated deals. The paired interval is valid "
            "either way; it is only narrower when the deals are alike.")


def _pair_indices(arms: list[Arm]) -> list[tuple[int, int]]:
    """Every pair of arms; with several policies and several tile sets, only pairs differing in one of them."""
    both = len({a.policy for a in arms}) > 1 and len({a.tile_set for a in arms}) > 1
    return [(i, j) for i, j in combinations(range(len(arms)), 2)
            if not both or arms[i].policy == arms[j].policy or arms[i].tile_set == arms[j].tile_set]


def _reach(ranks: np.ndarray, n_bands: int) -> np.ndarray:
    """Share of games finishing in band b or better, for every band b."""
    counts = np.bincount(np.asarray(ranks, np.int64), minlength=n_bands)
    return counts[::-1].cumsum()[::-1] / counts.sum()


def _describe(column: np.ndarray) -> dict:
    x = np.asarray(column, np.float64)
    return {"mean": float(x.mean()), "std": float(x.std(ddof=1)) if x.size > 1 else None,
            "min": int(x.min()), "max": int(x.max())}


def _pair(arm_a: Arm, arm_b: Arm, cols_a: np.ndarray, cols_b: np.ndarray, per_arm: dict, names) -> dict:
    """Paired difference of two arms' scores; ``a`` is the arm with the higher mean (ties: given order)."""
    if per_arm[arm_b.label]["mean"] > per_arm[arm_a.label]["mean"]:
        arm_a, arm_b, cols_a, cols_b = arm_b, arm_a, cols_b, cols_a
    pair = {"a": arm_a.label, "b": arm_b.label,
            **stats.paired_difference(cols_a[kb.COL_SCORE], cols_b[kb.COL_SCORE]),
            "same_deals": arm_a.tile_set == arm_b.tile_set}
    rank_a, rank_b = cols_a[kb.COL_RANK], cols_b[kb.COL_RANK]
    band = choose_band(_reach(rank_a, len(names)), _reach(rank_b, len(names)), names)
    if band is not None:
        k = names.index(band["name"])
        reach_diff = stats.paired_share_difference(rank_a >= k, rank_b >= k)
        band.update(diff=reach_diff["mean_diff"], ci95=reach_diff["ci95"])
    pair["band"] = band
    pair["sentence"] = pair_sentence(pair)
    return pair


def choose_band(reach_a, reach_b, names) -> dict | None:
    """The rank band a pair's sentence names (see BAND_RULE); None when there is only one band.

    ``reach_x[k]``: share of games in band k or better (``reach_x[0]`` is 1).
    """
    if len(names) < 2:
        return None
    a, b = np.asarray(reach_a, float), np.asarray(reach_b, float)
    common = [k for k in range(1, len(names)) if min(a[k], b[k]) >= REACH_FLOOR]
    if common:
        k, why = common[-1], f"highest band both reach in at least {REACH_FLOOR:.0%} of games"
    else:
        k = 1 + int(np.argmax(np.abs(a[1:] - b[1:])))  # first of equal differences: the lowest band
        why = f"no band above {names[0]} is reached by both in {REACH_FLOOR:.0%} of games: largest difference"
    return {"name": names[k], "top": k == len(names) - 1, "reach_a": float(a[k]), "reach_b": float(b[k]),
            "why": why}


# --------------------------------------------------------------------------- words

def share_text(p: float) -> str:
    """A share as a player reads it: 38%, 2.6%, 0.04%, 99.96%; 0% and 100% only when exact."""
    v = 100.0 * float(p)
    if v <= 0.0 or v >= 100.0:
        return f"{v:.0f}%"
    digits = 0 if 10.0 <= v else 1
    while digits < 6 and round(v, digits) in (0.0, 100.0):
        digits += 1
    text = f"{v:.{digits}f}"
    return (text.rstrip("0").rstrip(".") if "." in text else text) + "%"


def _points_digits(ci) -> int:
    """Decimals that show a difference to the precision its CI supports (1 to 3; 1 without a CI)."""
    if ci[0] is None:
        return 1
    half = (ci[1] - ci[0]) / 2
    return 1 if half <= 0 else int(np.clip(-math.floor(math.log10(half / 2)), 1, 3))


def _ci_words(ci, n: int, digits: int) -> str:
    """ "95% CI lo–hi" with true minus signs (an en dash after a minus sign reads as a second minus),
    or why there is none (stats.paired_difference)."""
    if ci[0] is None:
        return "one game: no 95% CI" if n == 1 else "the same difference in every game: no 95% CI"
    lo, hi = ci
    sep = "–" if lo >= 0 else " to "
    return f"95% CI {lo:.{digits}f}{sep}{hi:.{digits}f}".replace("-", "−")


def pair_sentence(pair: dict) -> str:
    """One sentence a player can read, from a pair's numbers (``a`` has the higher mean)."""
    a, b, d, lo = pair["a"], pair["b"], pair["mean_diff"], pair["ci95"][0]
    digits = _points_digits(pair["ci95"])
    ci = _ci_words(pair["ci95"], pair["n"], digits)
    same = d == 0 and lo is None  # every difference 0
    if same:
        text = f"{a} and {b} score exactly the same in every game"
    elif lo is None or lo > 0:  # (no interval: no spread, so no "noise" to speak of)
        text = f"{a} scores {d:.{digits}f} points more than {b} ({ci})"
    else:
        text = f"{a} scores {d:.{digits}f} points more than {b}, within the noise ({ci})"
    band = pair.get("band")
    if band:
        name = band["name"] + ("" if band["top"] else " or better")
        if band["reach_a"] == band["reach_b"] == 0:
            text += f"; neither reaches {name} in any game"
        elif same:
            text += f"; both reach {name} in {share_text(band['reach_a'])} of games"
        else:
            text += (f" and reaches {name} in {share_text(band['reach_a'])} vs "
                     f"{share_text(band['reach_b'])} of games")
    return text + "."


# --------------------------------------------------------------------------- oracle

def oracle_gaps(arms: list[Arm], columns: list[np.ndarray], per_arm: dict) -> list[dict]:
    """Per fair arm: the oracle's paired lead over it, and the share of the worst arm's gap it closes.

    Within one tile set. ``share_closed`` = (mean − worst mean) / (oracle mean − worst mean), a point
    estimate (a ratio of estimates; no interval), None where the denominator is not positive.
    """
    gaps = []
    for tile_set in dict.fromkeys(a.tile_set for a in arms):
        idx = [i for i, a in enumerate(arms) if a.tile_set == tile_set]
        oracles = [i for i in idx if arms[i].oracle]
        fair = [i for i in idx if not arms[i].oracle]
        if not oracles or not fair:
            continue
        worst = min(fair, key=lambda i: per_arm[arms[i].label]["mean"])
        worst_mean = per_arm[arms[worst].label]["mean"]
        for o in oracles:
            oracle_mean = per_arm[arms[o].label]["mean"]
            for i in fair:
                diff = stats.paired_difference(columns[o][kb.COL_SCORE], columns[i][kb.COL_SCORE])
                span = oracle_mean - worst_mean
                closed = (per_arm[arms[i].label]["mean"] - worst_mean) / span if span > 0 else None
                gap = {"oracle": arms[o].label, "policy": arms[i].label, "worst": arms[worst].label,
                       "mean_gap": diff["mean_diff"], "ci95": diff["ci95"], "n": diff["n"], "share_closed": closed}
                gaps.append(gap | {"sentence": gap_sentence(gap)})
    return gaps


def gap_sentence(gap: dict) -> str:
    digits = _points_digits(gap["ci95"])
    text = (f"{gap['policy']} scores {gap['mean_gap']:.{digits}f} points less than {gap['oracle']} "
            f"({_ci_words(gap['ci95'], gap['n'], digits)})")
    if gap["policy"] != gap["worst"] and gap["share_closed"] is not None:
        text += f" and closes {share_text(gap['share_closed'])} of the gap between {gap['worst']} and {gap['oracle']}"
    return text + "."
