"""The `seafarers play` report: who wins full games, by seat and by bot, how long games last, where the VP come from.

Built like the other Seafarers reports: one list of blocks rendered to Markdown and to HTML; images are written
first (atomically) and embedded in the HTML.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from analyzer.io import atomic_write_text
from reports.document import ci_range, num, pct, plural, render_html, render_md, reproduce_blocks, run_items
from reports.plots import ci_errors, new_figure, save_png
from reports.seafarers import hexplot

__all__ = ["headline", "write_play_report"]

SOURCES = (("vp_settlements", "settlements", "#8d6e63"), ("vp_cities", "cities", "#5d4037"),
           ("vp_island_bonus", "island bonus", "#2e7d32"), ("vp_longest_route", "longest trade route", "#24507a"),
           ("vp_largest_army", "largest army", "#c0392b"), ("vp_vp_cards", "VP cards", "#e6a817"))


def headline(summary: dict) -> str:
    """The answer in one sentence: the seat that wins most often, against a fair seat's share."""
    seats, fair = summary["seats"], summary["fair_share"]
    best = max(seats, key=lambda s: s["p_win"])
    worst = min(seats, key=lambda s: s["p_win"])
    lo, hi = best["ci95"]
    same_bots = len(summary["by_bot"]) == 1
    verdict = (f"Seat {best['seat']} wins most often: {pct(best['p_win'])} of {plural(summary['games'], 'game')} "
               f"(95% CI {pct(lo)}–{pct(hi)}) against the {pct(fair)} of a fair seat"
               + (f"; seat {worst['seat']} least, {pct(worst['p_win'])} (95% CI {ci_range(worst['ci95'], 1, pct)})"
                  if worst is not best else ""))
    if lo <= fair <= hi and worst["ci95"][0] <= fair <= worst["ci95"][1]:
        verdict += "; no seat's share differs measurably from a fair seat's"
    who = "every seat played by " + summary["bots"][0]["label"] if same_bots else \
        "bots " + ", ".join(f"seat {i + 1} {b['label']}" for i, b in enumerate(summary["bots"]))
    return verdict + f" ({who})."


def win_rates_plot(path, summary: dict) -> Path:
    seats = summary["seats"]
    fig = new_figure(6.4, 3.8)
    ax = fig.add_subplot()
    x = np.arange(len(seats))
    p = [s["p_win"] for s in seats]
    ax.bar(x, p, yerr=ci_errors(p, [s["ci95"] for s in seats]), capsize=4,
           color=[hexplot.SEAT_COLOURS[i] for i in range(len(seats))], edgecolor="#333333", label="win rate, 95% CI")
    ax.axhline(summary["fair_share"], color="#555555", linestyle="--", linewidth=1,
               label=f"a fair seat's share ({pct(summary['fair_share'], 0)})")
    ax.set_xticks(x, [f"seat {s['seat']}\n{s['bot']}" for s in seats], fontsize=8)
    ax.set_ylabel("share of games won")
    ax.yaxis.set_major_formatter(lambda v, _pos: f"{v:.0%}")
    ax.set_ylim(0, max(max(s["ci95"][1] for s in seats), summary["fair_share"]) * 1.25)
    ax.set_title(f"Win rate by seat over {plural(summary['games'], 'game')} (seat 1 plays first)", fontsize=10)
    ax.legend(fontsize=8, loc="upper right")
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return save_png(fig, path)


def length_plot(path, summary: dict, games: pl.DataFrame) -> Path:
    rolls = games.filter(pl.col("seat") == 1)["rolls"].to_numpy()
    fig = new_figure(7.2, 3.8)
    ax = fig.add_subplot()
    top = int(np.percentile(rolls, 99.5)) + 1
    ax.hist(np.minimum(rolls, top), bins=min(60, max(10, top // 10)), color="#24507a", edgecolor="white",
            label=f"these bots' games (median {num(np.median(rolls), 0)} rolls)")
    lo, hi = summary["human_rolls"]
    ax.axvspan(lo, hi, color="#e6a817", alpha=0.35,
               label=f"human 4-player base games: about {lo}–{hi} rolls (colonist.io)")
    ax.set_xlabel(f"rolls of the dice per game (the last bin holds every game of {top} rolls or more)")
    ax.set_ylabel("games")
    ax.set_title("Game length", fontsize=10)
    ax.legend(fontsize=8, loc="upper right")
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return save_png(fig, path)


def sources_plot(path, summary: dict) -> Path:
    seats = summary["seats"]
    fig = new_figure(6.8, 3.8)
    ax = fig.add_subplot()
    x = np.arange(len(seats))
    bottom = np.zeros(len(seats))
    for key, label, colour in SOURCES:
        v = np.array([s["vp_sources"][key] for s in seats])
        ax.bar(x, v, bottom=bottom, color=colour, edgecolor="white", label=label)
        bottom += v
    ax.axhline(summary["scenario"]["vp_target"], color="#555555", linestyle="--", linewidth=1,
               label=f"target ({summary['scenario']['vp_target']} VP)")
    ax.set_xticks(x, [f"seat {s['seat']}" for s in seats])
    ax.set_ylabel("VP at the end of the game (mean)")
    ax.set_title("Where the VP come from, by seat", fontsize=10)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return save_png(fig, path)


def _blocks(summary: dict, images: list[tuple[str, str]]) -> tuple[str, list[tuple]]:
    sc = summary["scenario"]
    title = f"Catan: Seafarers — {sc['name']}, {sc['players']} players: who wins full games"
    r, cap = summary["rolls"], summary["capped"]
    head = [("h1", title), ("p", headline(summary)),
            ("p", f"Games last {num(r['mean'], 0)} rolls on average (95% CI {ci_range(r['ci95'], 0)}); human "
                  f"4-player games of the base game last about {summary['human_rolls'][0]}–"
                  f"{summary['human_rolls'][1]}. {pct(cap['share'])} of games reached the "
                  f"{summary['turn_cap']:,}-turn cap without a winner. **These are baseline bots**: the figures say "
                  "how the seats fare under them, not at a table of people.")]
    rows = [[f"seat {s['seat']}", s["bot"], f"{s['wins']:,}", pct(s["p_win"]), ci_range(s["ci95"], 1, pct),
             num(s["vp"]["mean"], 2), *[num(s["vp_sources"][k], 2) for k, _, _ in SOURCES]] for s in summary["seats"]]
    blocks = head + [("h2", "Wins by seat"),
                     ("table", ["seat", "bot", "wins", "win rate", "95% CI (Wilson)", "mean VP",
                                *[label for _, label, _ in SOURCES]], rows, ["l", "l"] + ["r"] * 10)]
    if len(summary["by_bot"]) > 1:
        brows = [[label, f"{b['seat_games']:,}", f"{b['wins']:,}", pct(b["p_win"]), ci_range(b["ci95"], 1, pct)]
                 for label, b in summary["by_bot"].items()]
        blocks += [("h2", "Wins by bot"), ("p", "Over every seat the bot played (not yet rotated through the seats)."),
                   ("table", ["bot", "seat-games", "wins", "win rate", "95% CI"], brows, ["l", "r", "r", "r", "r"])]
    if images:
        blocks.append(("h2", "Plots"))
        blocks += [("img", alt, name) for alt, name in images]
    blocks += [("h2", "Bots"), ("ul", [f"{b['label']}: {b['about']}" + ("" if b["fair"] else " (an oracle: it "
                                                                                              "sees hidden cards)")
                                       for b in summary["bots"]]),
               ("h2", "Data and assumptions"), ("ul", [str(a) for a in summary["assumptions"]])]
    blocks += reproduce_blocks(summary, run_items(summary, f"games: {summary['games']:,}, boards: {summary['boards']}",
                                                  "games_per_second", "games"))
    return title, blocks


def write_play_report(out_dir, summary: dict, games: pl.DataFrame) -> list[Path]:
    """win_rates.png, game_length.png, vp_sources.png, report.md and report.html."""
    out_dir = Path(out_dir)
    images = [("Win rate by seat with 95% CIs", "win_rates.png"), ("Game length in rolls", "game_length.png"),
              ("VP sources by seat", "vp_sources.png")]
    written = [win_rates_plot(out_dir / "win_rates.png", summary), length_plot(out_dir / "game_length.png", summary,
                                                                               games),
               sources_plot(out_dir / "vp_sources.png", summary)]
    title, blocks = _blocks(summary, images)
    pictures = {name: (out_dir / name).read_bytes() for _alt, name in images}
    written.append(atomic_write_text(out_dir / "report.md", render_md(blocks)))
    written.append(atomic_write_text(out_dir / "report.html", render_html(blocks, title, pictures)))
    return written
