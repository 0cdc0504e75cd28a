"""The `seafarers tournament` report: which entrant wins full games most, by how much, with what certainty.

Built like the other Seafarers reports: one list of blocks rendered to Markdown and to HTML; images written first
(atomically) and embedded in the HTML.
"""

from __future__ import annotations

from pathlib import Path

from analyzer.io import atomic_write_text
from reports.document import (
    ci_range,
    num,
    pct,
    plural,
    points,
    points_range,
    render_html,
    render_md,
    reproduce_blocks,
    run_items,
)
from reports.plots import forest_plot
from reports.seafarers.play import _rate_bars, bot_phrase

__all__ = ["headline", "write_tournament_report"]

ENTRANT_COLOURS = ("#24507a", "#c0392b", "#2e7d32", "#e6a817", "#6a3d9a", "#8d6e63", "#17becf", "#555555")


def _where(summary: dict) -> str:
    sc = summary["scenario"]
    return f"on {sc['name']} with {sc['players']} players"


def _strength(summary: dict, label: str) -> str:
    bt = summary["bradley_terry"]
    if not bt["estimable"]:
        return ""
    e = bt["entrants"][label]
    if e["log_strength"] is None:
        return ""
    return f"; Bradley–Terry strength {num(e['strength'], 2)} (95% CI {ci_range(e['ci95'], 2)})"


def headline(summary: dict) -> str:
    """The answer: the strongest entrant, its win rate with its CI, and its lead over the runner-up with the CI."""
    top = summary["strongest"]
    best, second = top["label"], top["runner_up"]
    b = summary["by_entrant"][best]
    text = (f"`{best}` wins most: {pct(b['p_win'])} of its seat-games (95% CI {ci_range(b['ci95'], 1, pct)}) "
            f"{_where(summary)}, against the {pct(summary['fair_share'])} of a fair seat")
    lead = (f"{points(top['difference'])} points in every game alike" if top.get("alike") else
            f"{points(top['difference'])} points, 95% CI {points_range(top['ci95'])}")
    if top["clear"]:
        text += f", more than `{second}`, the runner-up ({lead})"
    else:
        text += f", but not measurably more than `{second}` ({lead})"
    return text + _strength(summary, best) + f" ({plural(summary['games'], 'game')}, each once per seating)."


def _oriented(d: dict) -> dict:
    """A pair with the better entrant first, in points."""
    lo, hi = d["ci95"]
    if d["mean_diff"] >= 0:
        return {"a": d["a"], "b": d["b"], "mean_diff": 100 * d["mean_diff"],
                "ci95": [None, None] if lo is None else [100 * lo, 100 * hi], "p_better": d["p_better"]}
    return {"a": d["b"], "b": d["a"], "mean_diff": -100 * d["mean_diff"],
            "ci95": [None, None] if lo is None else [-100 * hi, -100 * lo], "p_better": d["p_worse"]}


def pairs_plot(path, summary: dict) -> Path:
    pairs = sorted((_oriented(d) for d in summary["pairs"].values()), key=lambda p: -p["mean_diff"])
    return forest_plot(pairs, path, "difference in win rate per game, a − b, in percentage points (95% CI)",
                       f"Paired differences {_where(summary)}, on the same boards and dice",
                       lambda p: f"{p['mean_diff']:+.1f}  (a ahead in {pct(p['p_better'], 0)} of games)")


def rates_plot(path, summary: dict) -> Path:
    labels = list(summary["by_entrant"])
    return _rate_bars(path, summary, labels, [summary["by_entrant"][k] for k in labels],
                      [ENTRANT_COLOURS[i % len(ENTRANT_COLOURS)] for i in range(len(labels))],
                      "win rate per seat-game, 95% CI (clustered by game)", "share of its seat-games won",
                      f"Win rate by entrant {_where(summary)}")


def _blocks(summary: dict, images: list[tuple[str, str]]) -> tuple[str, list[tuple]]:
    sc = summary["scenario"]
    title = f"Catan: Seafarers — {sc['name']}, {sc['players']} players: a tournament of {len(summary['entrants'])} bots"
    r, cap = summary["rolls"], summary["capped"]
    bt = summary["bradley_terry"]
    head = [("h1", title), ("p", headline(summary)),
            ("p", f"{plural(summary['games'], 'game')}, each played once per seating ({len(summary['seatings'])} "
                  f"seatings: {summary['seating_plan']}), {plural(summary['games_played'], 'game')} in all, on the "
                  f"same boards, dice and decks. Games last {num(r['mean'], 0)} rolls on average; "
                  f"{pct(cap['share'])} reached the {summary['turn_cap']:,}-turn cap without a winner. **These are "
                  "bots**: the figures say how the entrants fare against each other, not at a table of people.")]
    rows = []
    for label, e in summary["by_entrant"].items():
        rw = e["rolls_to_win"]
        strength = bt["entrants"][label] if bt["estimable"] else None
        rows.append([f"`{label}`", f"{e['seat_games']:,}", f"{e['wins']:,}", pct(e["p_win"]),
                     ci_range(e["ci95"], 1, pct), num(e["vp"]["mean"], 2), ci_range(e["vp"]["ci95"], 2),
                     "—" if rw is None else num(rw["mean"], 1), "—" if rw is None else ci_range(rw["ci95"], 1),
                     "—" if strength is None else "0 (never won)" if strength["log_strength"] is None else
                     num(strength["strength"], 2), "—" if strength is None else ci_range(strength["ci95"], 2)])
    blocks = head + [("h2", "Entrants"),
                     ("table", ["entrant", "seat-games", "wins (seat-games)", "win rate (% of seat-games)",
                                "95% CI (%)", "VP at the end (mean)", "95% CI (VP)", "rolls to win (mean)",
                                "95% CI (rolls)", "Bradley–Terry strength (× the mean entrant's)", "95% CI (×)"],
                      rows, ["l"] + ["r"] * 10),
                     ("p", "Win rates are per seat-game (an entrant seated twice in a game counts twice); CIs are "
                           "clustered by game. Rolls to win: the mean length of the games the entrant won. "
                           + ("Bradley–Terry strengths are relative to the geometric mean entrant (1): an entrant "
                              "of strength a against one of strength b wins a / (a + b) of the games one of the two "
                              f"wins ({plural(bt['contests'], 'game')} with a winner, "
                              f"{plural(bt['clusters'], 'cluster')})."
                              + (f" {', '.join(f'`{x}`' for x in bt['never_won'])} never won: strength 0, the others "
                                 "fitted among themselves." if bt.get("never_won") else "") if bt["estimable"] else
                              f"Bradley–Terry strengths cannot be estimated here: {bt['reason']}."))]
    blocks += [("h2", "Head to head"),
               ("ul", [d["sentence"] for d in summary["pairs"].values()]),
               ("table", ["pair", "difference (percentage points)", "95% CI (points)", "first ahead (% of games)",
                          "second ahead (% of games)", "p (paired t)"],
                [[f"`{d['a']}` − `{d['b']}`", points(d["mean_diff"]), points_range(d["ci95"]),
                  pct(d["p_better"]), pct(d["p_worse"]), "—" if d["p_value"] is None else f"{d['p_value']:.3g}"]
                 for d in summary["pairs"].values()], ["l", "r", "r", "r", "r", "r"]),
               ("p", "Paired per game: the first entrant's win rate over its seat-games of the game's seatings minus "
                     "the second's, in percentage points (Student t over games).")]
    players = summary["scenario"]["players"]
    seat_rows = [[f"`{label}`", *[f"{pct(s['p_win'])} ({ci_range(s['ci95'], 1, pct)})" for s in e["by_seat"]]]
                 for label, e in summary["by_entrant"].items()]
    blocks += [("h2", "Win rate by seat"),
               ("table", ["entrant", *[f"seat {s + 1}, % of seat-games (95% CI)" for s in range(players)]], seat_rows,
                ["l"] + ["r"] * players),
               ("p", "Seat 1 plays first. Wilson 95% CIs; every entrant sits in every seat equally often."),
               ("h2", "Seatings"),
               ("ul", [f"seating {j + 1}: " + ", ".join(f"seat {s + 1} `{label}`" for s, label in enumerate(seating))
                       for j, seating in enumerate(summary["seatings"])])]
    if images:
        blocks.append(("h2", "Plots"))
        blocks += [("img", alt, name) for alt, name in images]
    blocks += [("h2", "Entrants' bots"), ("ul", bot_lines(summary["entrants"])),
               ("h2", "Data and assumptions"), ("ul", [str(a) for a in summary["assumptions"]])]
    blocks += reproduce_blocks(summary, run_items(summary, f"games: {summary['games']:,} × "
                                                           f"{len(summary['seatings'])} seatings, boards: "
                                                           f"{summary['boards']}", "games_per_second", "games"))
    return title, blocks


def bot_lines(entrants: list[dict]) -> list[str]:
    """One line per kind of bot: the entrants that play it, then what it does."""
    kinds: dict[str, list[dict]] = {}
    for e in entrants:
        kinds.setdefault(e["about"], []).append(e)
    return [", ".join(f"`{e['label']}`" + bot_phrase(e["label"], e["spec"])[len(e["label"]):] for e in group)
            + f": {about}"
            + ("" if group[0]["fair"] else " (an oracle: it sees hidden cards)") for about, group in kinds.items()]


def write_tournament_report(out_dir, summary: dict) -> list[Path]:
    """win_rates.png, pairs.png, report.md and report.html."""
    out_dir = Path(out_dir)
    images = [("Win rate by entrant with 95% CIs", "win_rates.png"),
              ("Paired differences in win rate with 95% CIs", "pairs.png")]
    written = [rates_plot(out_dir / "win_rates.png", summary), pairs_plot(out_dir / "pairs.png", summary)]
    title, blocks = _blocks(summary, images)
    pictures = {name: (out_dir / name).read_bytes() for _alt, name in images}
    written.append(atomic_write_text(out_dir / "report.md", render_md(blocks)))
    written.append(atomic_write_text(out_dir / "report.html", render_html(blocks, title, pictures)))
    return written
