"""The Catan: Seafarers reports: `balance` (report.md + self-contained report.html) and board drawings.

Built like reports/beacon/simulate.py: one list of blocks rendered to Markdown and to HTML, so both carry the same
content; images are written first (atomically) and embedded in the HTML.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from analyzer.io import atomic_write_text
from analyzer.seafarers.scenarios import RESOURCE_NAMES
from analyzer.seafarers.setup_policies import HEURISTICS
from reports.document import ci_range, num, pct, plural, render_html, render_md, reproduce_blocks, run_items
from reports.plots import ci_errors, legend, new_figure, save_png
from reports.seafarers import hexplot
from reports.seafarers.balance_wins import wins_blocks, wins_headline, wins_plots

__all__ = ["seat_bars", "write_balance_report", "write_board_png"]

_RESOURCE_COLOURS = [hexplot.TERRAIN_COLOURS[r] for r in RESOURCE_NAMES]


def _ci_text(m: dict, digits: int = 3) -> str:
    return f"{num(m['mean'], digits)} ({ci_range(m['ci95'], digits)})"


def _pct_ci(m: dict) -> str:
    return f"{pct(m['mean'])} ({ci_range(m['ci95'], 1, fmt=pct)})"


def seat_bars(path, summary: dict) -> Path:
    """Left: cards per roll per seat with 95% CIs, and the analytic expectation without the robber.
    Right: the same by resource, one group per seat."""
    seats = summary["seats"]
    n = len(seats)
    x = np.arange(n)
    fig = new_figure(10, 3.8)
    ax, bx = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 2]})
    totals = [s["income"]["total"] for s in seats]
    mean = np.array([t["mean"] for t in totals])
    err = ci_errors(mean, [t["ci95"] for t in totals])
    ax.bar(x, mean, yerr=err, capsize=4, color=[hexplot.SEAT_COLOURS[i] for i in range(n)], edgecolor="#333333")
    expected = [s["expected"]["total"]["mean"] for s in seats]
    ax.plot(x, expected, "k_", markersize=22, markeredgewidth=2, label="expected, no robber")
    ax.set_ylim(0, max(max(expected), float((mean + err[1]).max())) * 1.3)  # the legend above the bars
    ax.set_xticks(x, [f"seat {s['seat']}" for s in seats])
    ax.set_ylabel("resource cards per roll")
    ax.set_title("Income per roll (95% CI)", fontsize=10)
    legend(ax, fontsize=8, loc="upper center")
    width = 0.8 / len(RESOURCE_NAMES)
    for k, r in enumerate(RESOURCE_NAMES):
        ms = [s["income"][r] for s in seats]
        bx.bar(x + (k - 2) * width, [m["mean"] for m in ms], width,
               yerr=ci_errors([m["mean"] for m in ms], [m["ci95"] for m in ms]),
               capsize=2, color=_RESOURCE_COLOURS[k], edgecolor="#333333", linewidth=0.5, label=r)
    bx.set_xticks(x, [f"seat {s['seat']}" for s in seats])
    bx.set_title("By resource (gold picks included)", fontsize=10)
    legend(bx, fontsize=8, ncol=5, loc="upper center", bbox_to_anchor=(0.5, -0.1), frameon=False)
    for a in (ax, bx):
        a.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return save_png(fig, path)


def write_board_png(path, scenario, drawing: dict, title: str) -> Path:
    """A board (reports.seafarers.hexplot.draw_board) from a drawing dict: terrain, number, harbours, settlements,
    pieces."""
    return hexplot.draw_board(path, scenario, drawing["terrain"], drawing["number"],
                              harbours=drawing.get("harbours", ()), settlements=drawing.get("settlements", ()),
                              pieces=drawing.get("pieces", ()), title=title)


def _favoured(board: dict) -> str:
    """`; favours seat 1 (0.667 expected vs 0.500 for seat 2)`: the board's best and worst seat, no robber."""
    expected = board.get("expected")
    if not expected or max(expected) == min(expected):
        return ""
    best, worst = int(np.argmax(expected)), int(np.argmin(expected))
    return (f"; favours seat {best + 1} ({num(expected[best], 3)} expected vs {num(expected[worst], 3)} "
            f"for seat {worst + 1})")


def balance_title(summary: dict) -> str:
    sc = summary["scenario"]
    heuristic = HEURISTICS.parse(summary["heuristic"]).short_label  # only the parameters changed
    return f"Catan: Seafarers — {sc['name']}, {sc['players']} players: set-up balance ({heuristic})"


def _headline(summary: dict) -> str:
    """The verdict on seat order: which seat is favoured, by how much, with the paired CI."""
    seats = summary["seats"]
    first, last = seats[0], seats[-1]
    got = {s["seat"]: s["income"]["total"] for s in (first, last)}
    diff = summary.get("first_vs_last")  # first − last, paired on the same boards
    ci = (diff or {}).get("ci95")
    setting = (f"over {plural(summary['boards'], 'random legal board')} and {plural(summary['rolls'], 'roll')}, "
               f"every seat drafting with the same heuristic")
    if ci and (ci[0] > 0 or ci[1] < 0):
        fav, other = (first, last) if diff["mean_diff"] > 0 else (last, first)
        lo, hi = sorted(abs(v) for v in ci)
        text = (f"Seat {fav['seat']} (the {'first' if fav is first else 'last'} to place) is favoured: it receives "
                f"{_ci_text(got[fav['seat']])} cards per roll against seat {other['seat']}'s "
                f"{_ci_text(got[other['seat']])}, {num(abs(diff['mean_diff']), 3)} more (95% CI "
                f"{ci_range([lo, hi], 3)}, paired on the same boards), about "
                f"{num(abs(diff['mean_diff']) * summary['rolls'], 1)} cards over {summary['rolls']} rolls; {setting}.")
    else:
        measured = (f"difference {num(diff['mean_diff'], 3)}, 95% CI {ci_range(ci, 3)}" if ci and None not in ci
                    else "one board: no 95% CI" if summary["boards"] == 1 else "no 95% CI: no spread to measure")
        text = (f"No measurable advantage between the first and the last seat to place: seat {first['seat']} "
                f"receives {_ci_text(got[first['seat']])} cards per roll and seat {last['seat']} "
                f"{_ci_text(got[last['seat']])} ({measured}); {setting}.")
    spread = summary["board_stats"]["seat_spread"]
    return text + (f" On the average board the best and worst seat's expected income differ by "
                   f"{num(spread['mean'], 3)} cards per roll.")


def _why(summary: dict) -> str | None:
    """Where the model explains the order: the seat with the highest expected income receiving less because
    the modelled robber goes for the leader."""
    seats = summary["seats"]
    expected = [s["expected"]["total"]["mean"] for s in seats]
    received = [s["income"]["total"]["mean"] for s in seats]
    targeted = [s["sevens"]["targeted_share"]["mean"] for s in seats]
    leader, best = int(np.argmax(expected)), int(np.argmax(received))
    if leader == best or int(np.argmax(targeted)) != leader:
        return None
    return (f"Why: seat {seats[leader]['seat']} has the highest expected income ({num(expected[leader], 3)} cards "
            f"per roll without the robber) but receives {num(received[leader], 3)}, because the modelled robber "
            f"targets the leader: {pct(targeted[leader])} of 7s put it on seat {seats[leader]['seat']}'s hexes, "
            f"against {pct(targeted[best])} on seat {seats[best]['seat']}'s (see the robber assumption below).")


def _blocks(summary: dict, images: list[tuple[str, str]], wins_images=()) -> tuple[str, list[tuple]]:
    sc = summary["scenario"]
    title = balance_title(summary)
    if "by_wins" in summary:
        title += " and by wins"
        blocks: list[tuple] = [("h1", title), *(("p", line) for line in wins_headline(summary)),
                               ("p", "The income model (rolls without building, below): " + _headline(summary))]
    else:
        blocks = [("h1", title), ("p", _headline(summary))]
    if _why(summary):
        blocks.append(("p", _why(summary)))
    if sc["status"] != "published":
        blocks.append(("warn", f"This layout is '{sc['status']}': a published map partly reconstructed to agree "
                               "with the rulebook (see “Data and assumptions”)."))
    if summary.get("pirate_fleet"):
        blocks.append(("warn", summary["pirate_fleet"]["warning"]))
    if "by_wins" in summary:
        blocks += wins_blocks(summary, list(wins_images))
    seats = summary["seats"]
    rows = []
    for s in seats:
        sev = s["sevens"]
        rows.append([f"{s['seat']}", num(s["start_cards"]["mean"], 2), _ci_text(s["income"]["total"]),
                     num(s["expected"]["total"]["mean"], 3),
                     num(s["gold_cards"]["mean"], 3), num(s["blocked"]["mean"], 3), _pct_ci(s["missing"]["any"]),
                     pct(sev["targeted_share"]["mean"]), pct(sev["discard_share"]["mean"]),
                     num(sev["robbed_per_seven"]["mean"], 2)])
    blocks += [("h2", "Seats by income (1 = first to place)" if "by_wins" in summary else
                "Seats (1 = first to place)"),
               ("p", f"Means over boards with 95% Student-t intervals. Start cards: the starting resources every "
                     f"sequence begins with (one per producing hex at the seat's last drafted settlement; not "
                     f"income). Income: cards received per roll after the "
                     f"robber (gold picks included); expected: pip sum / 36 without the robber. Without a resource: "
                     f"share of {summary['rolls']}-roll sequences in which the seat got none of at least one "
                     f"resource. Per 7: share of 7s that put the robber on one of its hexes, share on which it "
                     f"discarded, and cards stolen from it."),
               ("table", ["seat", "start cards (cards)", "income (cards/roll, 95% CI)", "expected (cards/roll)",
                          "gold cards (cards/roll)", "blocked (cards/roll)", "without a resource (% of sequences, "
                          "95% CI)", "robber on it (% of 7s)", "discards (% of 7s)", "robbed (cards per 7)"],
                rows, ["l"] + ["r"] * 9)]
    rrows = [[f"{s['seat']}"] + [_ci_text(s["income"][r]) for r in RESOURCE_NAMES] for s in seats]
    blocks += [("h2", "Income by resource"),
               ("table", ["seat", *[f"{r} (cards/roll, 95% CI)" for r in RESOURCE_NAMES]], rrows,
                ["l"] + ["r"] * len(RESOURCE_NAMES))]
    mrows = [[f"{s['seat']}"] + [pct(s["missing"][r]["mean"]) for r in RESOURCE_NAMES] for s in seats]
    blocks += [("p", f"Probability of going {plural(summary['rolls'], 'roll')} without each resource:"),
               ("table", ["seat", *[f"{r} (% of sequences)" for r in RESOURCE_NAMES]], mrows,
                ["l"] + ["r"] * len(RESOURCE_NAMES))]
    labels = {"tries": "number deals per legal board (deals)", "pips_total": "pips on the board (pips)",
              "balance_index": "balance index (variance of resource pips, pips²)",
              "red_min_distance": "closest red numbers (hexes apart)",
              "red_mean_nearest": "mean distance to the nearest red number (hexes)",
              "sevens_per_roll": "7s per roll (7s/roll)",
              "seat_spread": "seat spread (best − worst expected income, cards/roll)"}
    brows = []
    for key, st in summary["board_stats"].items():
        if st.get("n"):
            brows.append([labels.get(key, key.replace("pips_", "pips: ") + " (pips)"), num(st["mean"]), num(st["std"]),
                          num(st["p5"]), num(st["p50"]), num(st["p95"])])
    blocks += [("h2", "Boards"),
               ("table", ["figure (its unit)", "mean", "std", "p5", "median", "p95"], brows,
                ["l", "r", "r", "r", "r", "r"])]
    if images:
        blocks.append(("h2", "Plots"))
        blocks += [("img", alt, name) for alt, name in images]
    blocks += [("h2", "Data and assumptions"), ("ul", [str(a) for a in summary["assumptions"]]),
               ("p", "Layout status of every scenario in the catalog (published: as in the public sources; "
                     "adjusted: partly reconstructed to agree with the rulebook; reconstructed: designed here):"),
               ("table", ["scenario", "players", "status"],
                [[x["scenario"], str(x["players"]), x["status"]] for x in summary["layouts"]], ["l", "r", "l"])]
    blocks += reproduce_blocks(summary, run_items(
        summary, f"boards: {summary['boards']:,}, sequences per board: {summary['sequences']}, rolls per "
        f"sequence: {summary['rolls']}" + _full_games(summary), "boards_per_second", "boards"))
    return title, blocks


def _full_games(summary: dict) -> str:
    w = summary.get("by_wins")
    if not w:
        return ""
    rate = f", {num(w['games_per_second'], 0)} games/s" if w.get("games_per_second") else ""
    return f"; full games: {w['games']:,} ({w['games_per_board']:,} per board{rate})"


def _board_title(summary: dict, key: str) -> str:
    """A drawn board's title: by wins, each seat's win rate on it; else the income model's seat spread."""
    if "by_wins" in summary:
        b = summary["by_wins"][f"{key}_board"]
        rates = ", ".join(f"{i + 1}: {pct(r, 0)}" for i, r in enumerate(b["win_rates"]))
        return (f"{key.replace('_', ' ')} board by wins: #{b['board']}, seat win rates {rates}; favours seat "
                f"{b['favoured_seat']}")
    info = summary[f"{key}_board"]
    return (f"{key.replace('_', ' ')} board: #{info['board']}, seat spread {num(info['seat_spread'], 3)} "
            "cards/roll" + _favoured(info))


def write_balance_report(out_dir, summary: dict, scenario, drawings: dict[str, dict], seats=None) -> list[Path]:
    """seat_bars.png, one PNG per drawing ({"fairest": drawing, ...}), report.md and report.html; with
    summary["by_wins"] (and `seats`, the per board-seat table), the by-wins plots too and the drawings are the
    fairest and least fair boards by wins."""
    out_dir = Path(out_dir)
    written = [seat_bars(out_dir / "seat_bars.png", summary)]
    images = [("Income per roll by seat with 95% CIs", "seat_bars.png")]
    for key, drawing in drawings.items():
        name = f"{key}_board.png"
        title = _board_title(summary, key)
        written.append(write_board_png(out_dir / name, scenario, drawing, title))
        images.append((title, name))
    wins_images = wins_plots(out_dir, summary, seats) if "by_wins" in summary else []
    title, blocks = _blocks(summary, images, wins_images)
    pictures = {name: (out_dir / name).read_bytes() for _alt, name in images + wins_images}
    written.append(atomic_write_text(out_dir / "report.md", render_md(blocks)))
    written.append(atomic_write_text(out_dir / "report.html", render_html(blocks, title, pictures)))
    return written
