"""The `seafarers seats` report: which seat wins more, scenario by scenario, with the base map beside them.

One table, one heat-map of scenario × seat (win rate minus a fair seat's share, diverging colours, every cell
annotated) and a generated paragraph; built like the other Seafarers reports (Markdown and HTML from one list of
blocks, images written first).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

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
from reports.plots import new_figure, save_png
from reports.seafarers.play import bot_phrase

__all__ = ["headline", "paragraph", "write_seats_report"]


def _bot(summary: dict) -> str:
    return bot_phrase(summary["bot"]["label"], summary["bot"]["spec"])


def _cell_name(c: dict) -> str:
    return f"{c['name']} ({c['players']} players)"


def headline(summary: dict) -> str:
    """The answer: the seat that wins most in most cells, and the largest edge any seat has, with its CI."""
    cells = summary["cells"]
    best = [max(c["seats"], key=lambda s: s["p_win"])["seat"] for c in cells]
    seat = max(set(best), key=best.count)
    where = ("the one cell" if len(cells) == 1 else f"all {len(cells)} cells" if best.count(seat) == len(cells)
             else f"{best.count(seat)} of the {len(cells)} cells")
    cell, top = max(((c, s) for c in cells for s in c["seats"]), key=lambda cs: cs[1]["advantage"])
    text = (f"Seat {seat} wins most in {where} (scenario × player count) played; the largest edge: seat "
            f"{top['seat']} in {_cell_name(cell)}, {pct(top['p_win'])} of {plural(cell['games'], 'game')} "
            f"(95% CI {ci_range(top['ci95'], 1, pct)}), "
            f"{points(top['advantage'])} points over a fair seat's {pct(cell['fair_share'])}")
    if top["ci95"][0] <= cell["fair_share"]:
        text += ", within its CI of a fair share"
    return text + f" ({_bot(summary)} in every seat)."


def _seat_sentence(cells: list[dict], index: int, fair: str) -> str:
    """How the seat at `index` fares across the cells: in how many it measurably wins more (or less) than a fair
    seat, and the range of its edge with the CIs at both ends."""
    seat = index + 1
    above = [c["name"] for c in cells if c["seats"][index]["advantage_ci95"][0] > 0]
    below = [c["name"] for c in cells if c["seats"][index]["advantage_ci95"][1] < 0]
    n = len(cells)

    def count(names: list[str]) -> str:
        return "every scenario" if len(names) == n else f"{len(names)} of {n} ({', '.join(names)})"

    if above and not below:
        verdict = f"seat {seat} wins measurably more than a fair {fair} in {count(above)}"
    elif below and not above:
        verdict = f"seat {seat} wins measurably less than a fair {fair} in {count(below)}"
    elif above and below:
        verdict = f"seat {seat} wins measurably more than a fair {fair} in {count(above)}, less in {count(below)}"
    else:
        verdict = f"seat {seat} wins neither measurably more nor less than a fair {fair} anywhere"
    edges = sorted(cells, key=lambda c: c["seats"][index]["advantage"])

    def edge(c: dict, name: bool) -> str:
        s = c["seats"][index]
        return (f"{points(s['advantage'])}" + (" points" if not name else "")
                + f" ({c['name'] + ', ' if name else ''}95% CI {points_range(s['advantage_ci95'])})")

    span = (f"from {edge(edges[0], True)} to {edge(edges[-1], True)} points" if n > 1 else edge(edges[0], False))
    return f"{verdict}: {span}"


def paragraph(summary: dict) -> str:
    """Which scenarios favour which seat, and by how much: per player count, the first and last seats' edges over
    a fair seat across the scenarios, then each scenario's first seat against the base map's."""
    out = [f"These figures are for {_bot(summary)} in every seat; the seat order moves with the bots' opening draft."]
    for players in sorted({c["players"] for c in summary["cells"]}):
        cells = [c for c in summary["cells"] if c["players"] == players]
        scen = [c for c in cells if c["scenario"] != "base"] or cells
        fair = pct(1 / players)
        out.append(f"With {players} players, {_seat_sentence(scen, 0, fair)}; "
                   f"{_seat_sentence(scen, players - 1, fair)}.")
        base = next((c for c in cells if c["scenario"] == "base"), None)
        if base is None or len(cells) == 1:
            continue
        b = base["seats"][0]
        parts = []
        for word, test in (("more", lambda ci: ci[0] > 0), ("less", lambda ci: ci[1] < 0)):
            group = [c for c in scen if test(c["seats"][0]["vs_base"]["ci95"])]
            if group:
                parts.append(", ".join(f"{c['name']} ({points(c['seats'][0]['vs_base']['difference'])} points, "
                                       f"95% CI {points_range(c['seats'][0]['vs_base']['ci95'])})" for c in group)
                             + f" favour{'s' if len(group) == 1 else ''} it {word}")
        same = [c["name"] for c in scen if "vs_base" in c["seats"][0]
                and c["seats"][0]["vs_base"]["ci95"][0] <= 0 <= c["seats"][0]["vs_base"]["ci95"][1]]
        if same:
            parts.append(f"{', '.join(same)} {'does' if len(same) == 1 else 'do'} not differ measurably from it")
        out.append(f"On the base map seat 1 has {points(b['advantage'])} points (95% CI "
                   f"{points_range(b['advantage_ci95'])}); " + "; ".join(parts) + ".")
    return " ".join(out)


def heat_map(path, summary: dict) -> Path:
    """Scenario × seat, one panel per player count: win rate minus a fair seat's share, in points; every cell
    annotated with the difference and its CI's half-width; the base map the first row."""
    counts = sorted({c["players"] for c in summary["cells"]})
    names = list(dict.fromkeys(c["scenario"] for c in summary["cells"]))
    by = {(c["scenario"], c["players"]): c for c in summary["cells"]}
    label = {c["scenario"]: c["name"] + (" (reference)" if c["scenario"] == "base" else "")
             for c in summary["cells"]}
    top = max(abs(100 * s["advantage"]) for c in summary["cells"] for s in c["seats"]) or 1.0
    fig = new_figure(2.2 + 2.3 * len(counts) + 0.6 * sum(counts) / len(counts), max(3.0, 1.4 + 0.55 * len(names)))
    fig.set_layout_engine("constrained")  # (room for the suptitle and the shared colour bar)
    axes = fig.subplots(1, len(counts), squeeze=False)[0]
    image = None
    for ax, players in zip(axes, counts):
        grid = np.full((len(names), players), np.nan)
        for i, name in enumerate(names):
            cell = by.get((name, players))
            if cell is None:
                continue
            for s in cell["seats"]:
                grid[i, s["seat"] - 1] = 100 * s["advantage"]
                half = 50 * (s["ci95"][1] - s["ci95"][0])
                ax.text(s["seat"] - 1, i, f"{100 * s['advantage']:+.1f}\n±{half:.1f}", ha="center", va="center",
                        fontsize=7.5, color="white" if abs(100 * s["advantage"]) > 0.6 * top else "#1d2733")
        image = ax.imshow(np.ma.masked_invalid(grid), cmap="RdBu_r", vmin=-top, vmax=top, aspect="auto")
        ax.set_xticks(range(players), [f"seat {k + 1}" for k in range(players)], fontsize=8)
        ax.set_yticks(range(len(names)), [label[n] for n in names] if ax is axes[0] else [""] * len(names),
                      fontsize=8)
        if "base" in names and len(names) > 1:
            ax.axhline(names.index("base") + 0.5, color="#1d2733", linewidth=1.5)
        ax.set_title(f"{players} players (fair share {pct(1 / players)})", fontsize=9)
        ax.tick_params(length=0)
    bar = fig.colorbar(image, ax=list(axes), shrink=0.9)
    bar.set_label("win rate − fair share (percentage points)", fontsize=8)
    fig.suptitle(f"Seat advantage, {_bot(summary)} in every seat: win rate − fair share and its 95% "
                 "CI half-width, in points", fontsize=9)
    return save_png(fig, path)


def _blocks(summary: dict, images: list[tuple[str, str]]) -> tuple[str, list[tuple]]:
    title = "Catan: Seafarers — seat advantage by scenario"
    cells = summary["cells"]
    most = max(c["players"] for c in cells)
    rows = []
    for c in cells:
        seats = [f"{pct(s['p_win'])} ({ci_range(s['ci95'], 1, pct)})" for s in c["seats"]]
        rows.append([c["name"], str(c["players"]), f"{c['games']:,}", *seats, *["—"] * (most - len(seats)),
                     f"±{100 * c['half_width']:.2f}", num(c["rolls"]["mean"], 1), f"{c['capped']['games']:,}"])
    blocks = [("h1", title), ("p", headline(summary)), ("p", paragraph(summary)),
              ("h2", "Seat win rates"),
              ("table", ["scenario", "players", "games", *[f"seat {k + 1}, % of games (95% CI)" for k in range(most)],
                         "worst CI half-width (percentage points)", "game length (rolls, mean)", "capped (games)"],
               rows,
               ["l"] + ["r"] * (most + 5)),
              ("p", f"{plural(summary['games_played'], 'game')} in all, {_bot(summary)} in every seat, "
                    "each game on its own random legal board of the scenario's variable set-up (the Pirate Islands: "
                    "its printed board, the harbours shuffled); seat 1 plays first. Wilson 95% CIs. **These are "
                    "bots**: the figures say how the seats fare under them, not at a table of people.")]
    if images:
        blocks.append(("h2", "Heat-map"))
        blocks += [("img", alt, name) for alt, name in images]
    blocks += [("h2", "Data and assumptions"), ("ul", [str(a) for a in summary["assumptions"]])]
    blocks += reproduce_blocks(summary, run_items(summary, f"games: {summary['games_played']:,} in "
                                                           f"{plural(len(cells), 'cell')}", "games_per_second",
                                                  "games"))
    return title, blocks


def write_seats_report(out_dir, summary: dict) -> list[Path]:
    """seats.png, report.md and report.html."""
    out_dir = Path(out_dir)
    images = [("Seat advantage: win rate minus a fair seat's share, scenario by seat", "seats.png")]
    written = [heat_map(out_dir / "seats.png", summary)]
    title, blocks = _blocks(summary, images)
    pictures = {name: (out_dir / name).read_bytes() for _alt, name in images}
    written.append(atomic_write_text(out_dir / "report.md", render_md(blocks)))
    written.append(atomic_write_text(out_dir / "report.html", render_html(blocks, title, pictures)))
    return written
