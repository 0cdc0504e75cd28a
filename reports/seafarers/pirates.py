"""The `seafarers pirates` report: fleet heat map, raid-risk map, conquest curves, tables (report.md + report.html).

Built like reports/seafarers/balance.py: one list of blocks rendered to Markdown and to HTML; images are written
first (atomically) and embedded in the HTML.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib import colormaps
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import Normalize

from analyzer.io import atomic_write_text
from analyzer.seafarers.scenarios import RESOURCE_NAMES, TERRAIN_NAMES
from reports.document import ci_range, num, pct, plural, render_html, render_md, reproduce_blocks, run_items
from reports.plots import legend, new_figure, save_png
from reports.seafarers import hexplot
from reports.seafarers.balance import _ci_text, write_board_png

__all__ = ["conquest_curves", "fleet_heat_map", "raid_risk_map", "write_pirates_report"]

_PLAN_COLOURS = ("#24507a", "#c0392b", "#2e7d32", "#8e44ad", "#e67e22", "#16a085")


def _board_axes(scenario, title: str, width: float = 7.5):
    """A figure with the printed map, faded, for overlays: (fig, ax, hex centres, corner points)."""
    topo = scenario.topology
    centres = hexplot.hex_centres(topo.coords)
    span = np.ptp(centres, axis=0) + 2 * hexplot.RADIUS
    fig = new_figure(width, width * span[1] / span[0] + 0.6)
    ax = fig.add_axes((0, 0.06, 0.9, 0.88))
    polys = centres[:, None, :] + hexplot._CORNER_OFFSETS[None, :, :] * 0.985
    colours = [hexplot.FRAME_COLOUR if k == "frame" else hexplot.TERRAIN_COLOURS[TERRAIN_NAMES[t]]
               for k, t in zip(scenario.kind, scenario.terrain)]
    ax.add_collection(PolyCollection(polys, facecolors=colours, edgecolors="#ffffff", linewidths=0.6, alpha=0.45))
    for h in np.flatnonzero(scenario.number_token > 0):
        ax.text(*centres[h], str(int(scenario.number_token[h])), ha="center", va="center", fontsize=7,
                color="#555555")
    low, high = centres.min(axis=0) - hexplot.RADIUS, centres.max(axis=0) + hexplot.RADIUS
    ax.set_xlim(low[0], high[0])
    ax.set_ylim(low[1], high[1])
    ax.set_aspect("equal")
    ax.axis("off")
    fig.suptitle(title, fontsize=10, y=0.99)
    return fig, ax, centres, hexplot.corner_points(topo)


def _colour_bar(fig, mappable, label: str) -> None:
    cax = fig.add_axes((0.91, 0.2, 0.02, 0.6))
    fig.colorbar(mappable, cax=cax).set_label(label, fontsize=8)
    cax.tick_params(labelsize=7)


def _routes_and_settlements(ax, setup, points) -> None:
    topo = setup.scenario.topology
    for p, route in enumerate(setup.routes):
        segs = [points[topo.edge_corners[e]] for e in route]
        ax.add_collection(LineCollection(segs, colors=hexplot.SEAT_COLOURS[p], linewidths=2.5, linestyles=(0, (2, 1)),
                                         zorder=4))
    for c, p, kind in zip(setup.site_corner, setup.site_owner, setup.site_kind):
        marker = {"start": "s", "colour": "o", "fortress": "^", "expansion": "D"}[kind]
        ax.plot(*points[c], marker=marker, markersize=7 if kind != "expansion" else 5, zorder=6,
                color=hexplot.SEAT_COLOURS[p], markeredgecolor="#111111", alpha=1 if kind != "expansion" else 0.6)


def fleet_heat_map(path, summary: dict, setup) -> Path:
    """The fleet path coloured by the share of stops on each hex, with the path order and the routes."""
    share = np.array(summary["fleet_position_share"], float)
    fig, ax, centres, points = _board_axes(setup.scenario, "Pirate fleet: share of stops per path hex (numbered in "
                                                           "path order, 0 = start); routes and set-up")
    norm = Normalize(vmin=min(share.min(), 1 / len(share)) * 0.95, vmax=max(share.max(), 1 / len(share)) * 1.05)
    cmap = colormaps["magma_r"]
    polys = centres[list(setup.path), None, :] + hexplot._CORNER_OFFSETS[None, :, :] * 0.97
    coll = PolyCollection(polys, facecolors=cmap(norm(share)), edgecolors="#222222", linewidths=0.8, zorder=2)
    ax.add_collection(coll)
    for i, h in enumerate(setup.path):
        light = norm(share[i]) > 0.55
        ax.text(*centres[h] + [0, 0.12], str(i), ha="center", va="center", fontsize=7, zorder=3,
                color="#ffffff" if light else "#111111", fontweight="bold")
        ax.text(*centres[h] - [0, 0.12], f"{share[i]:.1%}", ha="center", va="center", fontsize=6, zorder=3,
                color="#ffffff" if light else "#111111")
    _routes_and_settlements(ax, setup, points)
    coll.set_cmap(cmap)
    coll.set_norm(norm)
    coll.set_array(share)
    _colour_bar(fig, coll, f"share of stops (uniform: {1 / len(share):.2%})")
    return save_png(fig, path)


def raid_risk_map(path, summary: dict, setup) -> Path:
    """Every coastal corner coloured by the cards a lone settlement there loses to raids per 100 rolls."""
    risk = summary["raid_risk"]
    fig, ax, centres, points = _board_axes(
        setup.scenario, f"Raid risk: cards lost per 100 rolls by a settlement without warships "
                        f"(raid rule {summary['raid_rule']}; circles: where a settlement can stand)")
    values = np.array([r["loss_per_100"]["0"] for r in risk])
    cmap = colormaps["Reds"]
    norm = Normalize(vmin=0, vmax=max(values.max(), 1e-9))
    for h in setup.path:
        ax.add_patch(hexplot._circle(centres[h], 0.08, "#222222", "#222222"))
    xy = np.array([points[r["corner"]] for r in risk])
    settle = np.array([r["settle"] for r in risk])
    sc = ax.scatter(xy[settle, 0], xy[settle, 1], c=values[settle], cmap=cmap, norm=norm, s=60, edgecolors="#111111",
                    linewidths=0.6, zorder=5)
    ax.scatter(xy[~settle, 0], xy[~settle, 1], c=values[~settle], cmap=cmap, norm=norm, s=22, marker="s",
               edgecolors="#777777", linewidths=0.4, zorder=4)
    _colour_bar(fig, sc, "cards lost per 100 rolls")
    return save_png(fig, path)


def conquest_curves(path, summary: dict) -> Path:
    """P(fortress conquered by round t) per plan, all seats pooled."""
    fig = new_figure(8, 4.2)
    ax = fig.add_subplot()
    for i, (label, curve) in enumerate(summary["conquest_curves"].items()):
        ax.step(np.arange(1, len(curve) + 1), curve, where="post", color=_PLAN_COLOURS[i % len(_PLAN_COLOURS)],
                label=label, linewidth=1.6)
    for t in (20, 30, 40):
        ax.axvline(t, color="#999999", linewidth=0.6, linestyle=":")
    last = max((next((t for t, v in enumerate(c) if v >= max(c) - 1e-12), len(c)) for c in
                summary["conquest_curves"].values()), default=1)
    ax.set_xlim(0, min(summary["max_rounds"], last + 10))
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("round (the seat's own turns)")
    ax.set_ylabel("P(own fortress conquered)")
    ax.set_title("Conquest time per plan (all seats pooled)", fontsize=10)
    legend(ax, fontsize=8, loc="lower right")
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return save_png(fig, path)


def _mean_text(m: dict | None, digits: int = 1) -> str:
    return "—" if m is None else _ci_text(m, digits)


def _blocks(summary: dict, images: list[tuple[str, str]]) -> tuple[str, list[tuple]]:
    sc = summary["scenario"]
    title = f"Catan: Seafarers — {sc['name']}, {sc['players']} players: the pirate fleet and the race to the fortresses"
    turns = summary["turns_to_conquer"]
    best = min((k for k in turns if turns[k]["all seats"]["mean"] is not None),
               key=lambda k: (-turns[k]["all seats"]["p_conquered"], turns[k]["all seats"]["mean"]["mean"]),
               default=None)
    share = summary["fleet_position_share"]
    head = (f"{plural(summary['games'], 'game')} per plan on the fixed map (the same dice and development decks for "
            f"every plan). ")
    if best:
        a = turns[best]["all seats"]
        head += (f"Fastest plan (most seat-games conquered within {summary['max_rounds']} rounds, then fewest "
                 f"rounds): {best}, fortress conquered in {pct(a['p_conquered'])} of seat-games, those after "
                 f"{_ci_text(a['mean'], 1)} rounds on average. ")
    head += (f"The fleet stopped on each of its {len(share)} hexes between {pct(min(share))} and {pct(max(share))} "
             f"of rolls (uniform: {pct(1 / len(share))}). Raid rule: {summary['raid_rule']}.")
    blocks: list[tuple] = [("h1", title), ("p", head)]
    by = [str(t) for t in (20, 30, 40) if t <= summary["max_rounds"]]
    rows = []
    for label, t in turns.items():
        a = t["all seats"]
        w = summary["wins"][label]
        rows.append([label, pct(a["p_conquered"]), _mean_text(a["mean"]),
                     num(a["percentiles"]["p50"], 0) if a["percentiles"] else "—",
                     *[pct(a["p_by_round"][k]["p"]) for k in by],
                     _mean_text(w["win_round"]), pct(1 - w["p_no_winner"])])
    blocks += [("h2", "Turns to conquer the own fortress, per plan"),
               ("p", "Rounds = the seat's own turns. Mean and median over the seat-games that conquered (95% "
                     "Student-t CI); P(by round t) over all seat-games. Win round: the first seat with its fortress "
                     f"and {sc.get('vp_target', 10)} VP."),
               ("table", ["plan", "conquered (% of seat-games)", "mean (rounds, 95% CI)", "median (rounds)",
                          *[f"P(by round {k}) (%)" for k in by], "win round (rounds, 95% CI)",
                          "games won (% of games)"], rows, ["l"] + ["r"] * (5 + len(by)))]
    srows = []
    for label, t in turns.items():
        for seat, s in t.items():
            if seat == "all seats":
                continue
            srows.append([label, seat, pct(s["p_conquered"]), _mean_text(s["mean"]),
                          *[pct(s["p_by_round"][k]["p"]) for k in by], pct(summary["wins"][label]["p_seat"][seat])])
    blocks += [("p", "By seat (seat 1 rolls first):"),
               ("table", ["plan", "seat", "conquered (% of seat-games)", "mean (rounds, 95% CI)",
                          *[f"P(by round {k}) (%)" for k in by], "wins (% of games)"],
                srows, ["l", "l"] + ["r"] * (3 + len(by)))]
    if summary["paired_differences"]:
        prow = []
        for name, d in summary["paired_differences"].items():
            for seat, x in d.items():
                prow.append([name, seat, num(x["mean_diff"], 2), ci_range(x["ci95"], 2),
                             pct(x["p_better"]), pct(x["p_worse"]),
                             "—" if x["p_value"] is None else f"{x['p_value']:.3g}"])
        blocks += [("h2", "Paired differences between plans"),
                   ("p", f"Per game (common random numbers): {summary['paired_note']}. Negative = the plan "
                         "conquers sooner. 'later' = share of games where the first plan conquers sooner."),
                   ("table", ["comparison", "seat", "mean difference (rounds)", "95% CI (rounds)",
                              "later (% of games)", "sooner (% of games)", "p (paired t)"], prow,
                    ["l", "l", "r", "r", "r", "r", "r"])]
    wrows = []
    for label, table in summary["warships_at_attack"].items():
        for r in table:
            chain = summary["siege_chain"].get(str(min(max(r["warships"], 2), 7)))
            wrows.append([label, str(r["warships"]), f"{r['seats']:,}", pct(r["p_conquered"]),
                          _mean_text(r["rounds_to_conquer"]), _mean_text(r["rounds_after_first_attack"]),
                          _mean_text(r["battles"], 2),
                          pct(chain["warships"]["p_conquer"]) if chain and r["warships"] >= 2 else "0%",
                          num(chain["rebuilt"]["battles"], 2) if chain and r["warships"] >= 2 else "—"])
    blocks += [("h2", "Warships at the first attack → turns to conquer"),
               ("p", "Seat-games grouped by their warships at the first attack. Rounds after: from the first attack to "
                     "the conquest (rebuilding lost ships included). Exact siege chain (kernels/catan/fortress.py): "
                     "P(conquest) without ever adding a warship, when every lost ship is a warship, and expected "
                     "battles when lost ships are rebuilt in front (analyzer/seafarers/fortress.py)."),
               ("table", ["plan", "warships (ships)", "seat-games", "conquered (% of seat-games)",
                          "to conquer (rounds)", "after the first attack (rounds)", "battles (battles)",
                          "chain: P(conquer), no new warship (%)", "chain: battles, rebuilt (battles)"], wrows,
                ["l"] + ["r"] * 8)]
    freq = summary["fleet_position_frequency"]
    frows = [[str(i), f"[{q}, {r}]", f"{c:,}", pct(s), pct(u)] for i, ((q, r), c, s, u) in
             enumerate(zip(summary["fleet_path"], freq, share, summary["fleet_stationary_share"]))]
    blocks += [("h2", "The pirate fleet"),
               ("p", "Stops of the fleet on each path hex over every roll of every game and plan (the fleet moves the "
                     "lower die's value clockwise each roll and leaves when every fortress has fallen). The chain's "
                     "stationary law, solved from the lower-die law P(min = k) = (13 − 2k)/36, is uniform; games start "
                     "at index 0, so the first hexes after it are slightly favoured in short games."),
               ("table", ["path index", "hex (q, r)", "stops (rolls)", "share (% of rolls)",
                          "stationary (% of rolls)"], frows, ["r", "l", "r", "r", "r"])]
    rrows = []
    for label, seats in summary["raids"].items():
        for seat, x in seats.items():
            rrows.append([label, seat, _mean_text(x["raided"], 2), _mean_text(x["suffered"], 2),
                          _mean_text(x["won"], 2), _mean_text(x["cards_lost_per_100_rolls"], 2),
                          _mean_text(x["cards_gained_per_100_rolls"], 2)])
    blocks += [("h2", "Raids per seat"),
               ("p", "Per game (95% CI): raids on the seat, raids the pirates won (cards lost), raids the seat won "
                     "(a card of its choice); cards lost and gained per 100 rolls of the game."),
               ("table", ["plan", "seat", "raided (raids/game)", "suffered (raids/game)", "won (raids/game)",
                          "cards lost / 100 rolls", "cards gained / 100 rolls"], rrows,
                ["l", "l", "r", "r", "r", "r", "r"])]
    risk = sorted((r for r in summary["raid_risk"] if r["settle"]), key=lambda r: -r["loss_per_100"]["0"])
    krows = [[r["name"], r["kind"] or "—", ", ".join(map(str, r["path_indices"])) or "—",
              *[num(r["loss_per_100"][w], 2) for w in "0123"], *[num(r["gain_per_100"][w], 2) for w in "23"]]
             for r in risk[:15]]
    blocks += [("h2", "Raid risk of coastal corners"),
               ("p", "Long-run cards a lone settlement loses (and gains) per 100 rolls against w warships: 100 × "
                     "(path hexes at the corner)/L × P(lower die > w) (or < w for gains); a city adds a card per city "
                     "to every loss. The 15 riskiest corners where a settlement can stand (every coastal corner is in "
                     "summary.json):"),
               ("table", ["corner", "site", "path hexes (indices)", "loss w=0 (cards/100 rolls)", "w=1", "w=2",
                          "w=3", "gain w=2 (cards/100 rolls)", "w=3"], krows,
                ["l", "l", "l"] + ["r"] * 6)]
    hand = lambda h: ", ".join(f"{n} {r}" for n, r in zip(h, RESOURCE_NAMES) if n) or "none"  # noqa: E731
    def sites(s, kind):
        return ", ".join(f"{x['corner']} ({x['pips']})" + (f" +{x['roads']} roads" if x["roads"] else "")
                         for x in s["sites"] if x["kind"] == kind) or "—"
    urows = [[str(s["seat"]), str(s["slot"]), sites(s, "start"), str(s["start_pips"]), hand(s["start_hand"]),
              f"{s['route_ships']} ({s['shortest_routes']} shortest)", sites(s, "colour"), sites(s, "fortress"),
              sites(s, "expansion")] for s in summary["seats"]]
    blocks += [("h2", "Set-up"),
               ("p", f"Drafted once with the '{summary['heuristic']}' heuristic (ties: draft seed "
                     f"{summary['draft_seed']}); corners as q,r,N|S with their pips."),
               ("table", ["seat", "slot", "start settlements (corner (pips))", "pips", "start hand (cards)",
                          "route (ships)", "colour corner (pips)", "fortress (pips)", "expansion sites (pips)"],
                urows, ["l", "r", "l", "r", "l", "r", "l", "l", "l"])]
    if images:
        blocks.append(("h2", "Plots"))
        blocks += [("img", alt, name) for alt, name in images]
    blocks += [("h2", "Plans"), ("ul", [f"{p['label']}: {p['description']}" for p in summary["plans"]]),
               ("h2", "Data and assumptions"), ("ul", [str(a) for a in summary["assumptions"]])]
    blocks += reproduce_blocks(summary, run_items(
        summary, f"games per plan: {summary['games']:,}, max rounds: {summary['max_rounds']}",
        "games_per_second", "games"))
    return title, blocks


def write_pirates_report(out_dir, summary: dict, setup) -> list[Path]:
    """fleet_heat.png, raid_risk.png, conquest_curves.png, routes.png, report.md and report.html."""
    out_dir = Path(out_dir)
    images = [("Conquest time per plan", "conquest_curves.png"),
              ("Pirate fleet heat map", "fleet_heat.png"),
              ("Raid risk of coastal corners", "raid_risk.png"),
              ("The map with the set-up and the routes", "routes.png")]
    written = [conquest_curves(out_dir / "conquest_curves.png", summary),
               fleet_heat_map(out_dir / "fleet_heat.png", summary, setup),
               raid_risk_map(out_dir / "raid_risk.png", summary, setup),
               write_board_png(out_dir / "routes.png", setup.scenario, setup.drawing(),
                               f"{setup.scenario.name}, {setup.players} players: set-up ({setup.heuristic}) and "
                               "the ship routes")]
    title, blocks = _blocks(summary, images)
    pictures = {name: (out_dir / name).read_bytes() for _alt, name in images}
    written.append(atomic_write_text(out_dir / "report.md", render_md(blocks)))
    written.append(atomic_write_text(out_dir / "report.html", render_html(blocks, title, pictures)))
    return written
