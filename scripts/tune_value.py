"""Tune the Seafarers value bot's weights by paired sweeps (issue 28), then confirm on another seed.

    .venv/bin/python scripts/tune_value.py                       # New Shores, 4 players, ~10 minutes on 2 cores
    .venv/bin/python scripts/tune_value.py --games 300 --params reach,card

How: for each weight in turn (coordinate ascent, one pass), each candidate value plays the current best weights
in `--rotate` games (seats A, B, A, B through all four rotations: the same boards, dice and decks for both), on the
tuning seed. A candidate replaces the current value only if its paired win-rate difference is positive with the
95% CI above zero. The tuned weights then play the defaults on a fresh seed (the confirmation seed): only that
figure says whether they are better; the sweep's own figures are biased upwards by the choice.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.seafarers.bots import bot_name, parse_bot  # noqa: E402
from analyzer.seafarers.full_game import play_games  # noqa: E402

CANDIDATES = {"reach": (0.3, 0.9, 1.2), "card": (2.0, 6.0, 8.0), "pips": (0.5, 1.5, 2.0), "new": (0.0, 4.0),
              "vp": (6.0, 14.0), "variety": (0.0, 4.0)}


def label(weights: dict) -> str:
    return "value" + (":" + ",".join(f"{k}={v:g}" for k, v in sorted(weights.items())) if weights else "")


def duel(a: str, b: str, scenario: str, games: int, seed: int, threads: int) -> dict:
    """a's win rate minus b's in points of share, paired per game under rotation (seats a, b, a, b)."""
    r = play_games(scenario, 4, [a, b, a, b], games, seed, rotate=True, threads=threads, progress=False)
    la, lb = bot_name(parse_bot(a)), bot_name(parse_bot(b))
    d = next(d for d in r.summary["bot_differences"].values() if {d["a"], d["b"]} == {la, lb})
    lo, hi = d["ci95"] if d["ci95"][0] is not None else (float("nan"), float("nan"))  # no spread to measure
    if d["a"] == la:
        return {"diff": d["mean_diff"], "ci95": (lo, hi)}
    return {"diff": -d["mean_diff"], "ci95": (-hi, -lo)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default="new-shores")
    ap.add_argument("--games", type=int, default=500, help="games per duel (each played in 4 rotations)")
    ap.add_argument("--seed", type=int, default=101, help="the tuning seed")
    ap.add_argument("--confirm-seed", type=int, default=202)
    ap.add_argument("--confirm-games", type=int, default=2000)
    ap.add_argument("--params", default=",".join(CANDIDATES))
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    best: dict = {}
    print(f"Tuning the value bot on {args.scenario}, 4 players, seed {args.seed}, {args.games} games x 4 rotations "
          "per duel")
    for name in args.params.split(","):
        for v in CANDIDATES[name]:
            trial = {**best, name: v}
            d = duel(label(trial), label(best), args.scenario, args.games, args.seed, args.threads)
            keep = d["ci95"][0] > 0
            print(f"  {label(trial):40} vs {label(best):40} {100 * d['diff']:+6.1f} points "
                  f"(95% CI {100 * d['ci95'][0]:+.1f} to {100 * d['ci95'][1]:+.1f}){'  kept' if keep else ''}",
                  flush=True)
            if keep:
                best = trial
    print(f"tuned: {label(best)}")
    if best:
        d = duel(label(best), "value", args.scenario, args.confirm_games, args.confirm_seed, args.threads)
        print(f"confirmation on seed {args.confirm_seed}, {args.confirm_games} games x 4 rotations: {label(best)} vs "
              f"value {100 * d['diff']:+.1f} points (95% CI {100 * d['ci95'][0]:+.1f} to {100 * d['ci95'][1]:+.1f})")


if __name__ == "__main__":
    main()
