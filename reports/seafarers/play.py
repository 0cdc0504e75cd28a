"""The `seafarers play` report: who wins full games, by seat and by bot, how long games last, where the VP come from.

Built like the other Seafarers reports: one list of blocks rendered to Markdown and to HTML; images are written
first (atomically) and embedded in the HTML.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib import patheffects

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
from reports.plots import ci_errors, legend, new_figure, save_png
from reports.seafarers import hexplot

__all__ = ["bot_phrase", "headline", "write_play_report"]

SOURCES = (("vp_settlements", "settlements", "#8d6e63"), ("vp_cities", "cities", "#5d4037"),
           ("vp_island_bonus", "island bonus", "#2e7d32"), ("vp_longest_route", "longest trade route", "#24507a"),
           ("vp_largest_army", "largest army", "#c0392b"), ("vp_vp_cards", "VP cards", "#e6a817"),
           ("vp_cloth", "cloth", "#7b1fa2"), ("vp_chits", "Catan chits", "#00897b"))


def bot_phrase(label: str, spec: str) -> str:
    """A bot as a sentence names it: its label, and the opening it drafts with where the label leaves it at its
    default (the seat figures move with the opening: docs/seafarers/full_game.md)."""
    from analyzer.seafarers.bots import OPENINGS

    if "opening=" in label:
        return label
    for item in spec.partition(":")[2].split(","):
        key, _, value = item.partition("=")
        if key == "opening":
            return f"{label} (opening {OPENINGS[int(float(value))]}, the default)"
    return label


def _bot_phrase(bot: dict) -> str:
    return bot_phrase(bot["label"], bot["spec"])


def _sources(summary: dict) -> tuple:
    """The VP sources the run's scenario has (cloth only where cloth is traded, chits only where there are any)."""
    return tuple(src for src in SOURCES if src[0] in summary["seats"][0]["vp_sources"])


def _bot_sentence(summary: dict) -> str:
    """Which bot wins more: under rotation the paired per-game difference, else the bots' shares in their seats."""
    by_bot = summary["by_bot"]
    if len(by_bot) < 2:
        return ""
    order = sorted(by_bot, key=lambda k: -by_bot[k]["p_win"])
    best, second = order[0], order[1]
    a, b = by_bot[best], by_bot[second]
    text = (f"{best} wins {pct(a['p_win'])} of its seat-games (95% CI {ci_range(a['ci95'], 1, pct)}), {second} "
            f"{pct(b['p_win'])} (95% CI {ci_range(b['ci95'], 1, pct)})")
    diffs = summary.get("bot_differences") or {}
    d = diffs.get(f"{best} vs {second}") or diffs.get(f"{second} vs {best}")
    if d:
        sign = 1 if d["a"] == best else -1
        lo, hi = (sign * x if x is not None else None for x in d["ci95"])
        lo, hi = (lo, hi) if sign == 1 else (hi, lo)
        text += (f": {points(sign * d['mean_diff'])} points per game ("
                 + ("no 95% CI: every game alike" if lo is None else f"95% CI {points_range([lo, hi])}")
                 + "), every bot in every seat on the same boards and dice. ")
    else:
        text += " (the bots kept their seats, so seat and bot effects are mixed; --rotate separates them). "
    return text


def headline(summary: dict) -> str:
    """The answer in one or two sentences: which bot wins more (when bots differ), and the seat that wins most
    often against a fair seat's share."""
    seats, fair = summary["seats"], summary["fair_share"]
    best = max(seats, key=lambda s: s["p_win"])
    worst = min(seats, key=lambda s: s["p_win"])
    lo, hi = best["ci95"]
    played = summary.get("games_played", summary["games"])
    if summary.get("rotate"):
        bots = ", ".join(dict.fromkeys(_bot_phrase(b) for b in summary["bots"]))
        who = f"each game played once per seat rotation of the bots ({bots})"
    elif len(summary["by_bot"]) == 1:
        who = f"{_bot_phrase(summary['bots'][0])} in every seat"
    else:
        who = ", ".join(f"seat {i + 1} {_bot_phrase(b)}" for i, b in enumerate(summary["bots"]))
    verdict = (f"With {who}, seat {best['seat']} wins most often: {pct(best['p_win'])} of {plural(played, 'game')} "
               f"(95% CI {pct(lo)}–{pct(hi)}) against the {pct(fair)} of a fair seat"
               + (f"; seat {worst['seat']} least, {pct(worst['p_win'])} (95% CI {ci_range(worst['ci95'], 1, pct)})"
                  if worst is not best else ""))
    if lo <= fair <= hi and worst["ci95"][0] <= fair <= worst["ci95"][1]:
        verdict += "; no seat's share differs measurably from a fair seat's"
    return _bot_sentence(summary) + verdict + "."


def bot_rates_plot(path, summary: dict) -> Path:
    labels = list(summary["by_bot"])
    how = "every bot in every seat" if summary.get("rotate") else "bots in fixed seats"
    return _rate_bars(path, summary, labels, [summary["by_bot"][k] for k in labels], "#24507a",
                      "win rate per seat-game, 95% CI", "share of its seat-games won", f"Win rate by bot ({how})")


def _rate_bars(path, summary: dict, labels: list[str], shares: list[dict], colours, bar_label: str, ylabel: str,
               title: str) -> Path:
    """Win rates as bars with their 95% CIs and a fair seat's share as a dashed line."""
    fig = new_figure(6.4, 3.8)
    ax = fig.add_subplot()
    x = np.arange(len(shares))
    p = [s["p_win"] for s in shares]
    ax.bar(x, p, yerr=ci_errors(p, [s["ci95"] for s in shares]), capsize=4, color=colours, edgecolor="#333333",
           label=bar_label)
    ax.axhline(summary["fair_share"], color="#555555", linestyle="--", linewidth=1,
               label=f"a fair seat's share ({pct(summary['fair_share'], 0)})")
    ax.set_xticks(x, labels, fontsize=8)
    ax.set_ylabel(ylabel)
    ax.yaxis.set_major_formatter(lambda v, _pos: f"{v:.0%}")
    ax.set_ylim(0, max(max(s["ci95"][1] for s in shares), summary["fair_share"]) * 1.25)
    ax.set_title(title, fontsize=10)
    legend(ax, fontsize=8, loc="upper right")
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return save_png(fig, path)


def win_rates_plot(path, summary: dict) -> Path:
    seats = summary["seats"]
    labels = [f"seat {s['seat']}" if summary.get("rotate") else f"seat {s['seat']}\n{s['bot']}" for s in seats]
    played = summary.get("games_played", summary["games"])
    return _rate_bars(path, summary, labels, seats, [hexplot.SEAT_COLOURS[i] for i in range(len(seats))],
                      "win rate, 95% CI", "share of games won",
                      f"Win rate by seat over {plural(played, 'game')} (seat 1 plays first)")


def length_plot(path, summary: dict) -> Path:
    """The histogram of every game played (summary["rolls"]["histogram"]: kept with or without the per-game
    table)."""
    rolls = np.array(summary["rolls"]["histogram"]["rolls"])
    games = np.array(summary["rolls"]["histogram"]["games"])
    fig = new_figure(7.2, 3.8)
    ax = fig.add_subplot()
    top = int(rolls[np.searchsorted(np.cumsum(games), 0.995 * games.sum())]) + 1
    ax.hist(np.minimum(rolls, top), bins=min(60, max(10, top // 10)), weights=games, color="#24507a",
            edgecolor="white", label=f"these bots' games (median {num(summary['rolls']['percentiles']['p50'], 0)} "
                                     "rolls)")
    lo, hi = summary["human_rolls"]
    ax.axvspan(lo, hi, color="#e6a817", alpha=0.35,
               label=f"human 4-player base games: about {lo}–{hi} rolls (colonist.io)")
    ax.set_xlabel(f"rolls of the dice per game (the last bin holds every game of {top} rolls or more)")
    ax.set_ylabel("games")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.3)  # headroom: the legend above the tallest bars, not over them
    ax.set_title("Game length", fontsize=10)
    legend(ax, fontsize=8, loc="upper right")
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return save_png(fig, path)


def sources_plot(path, summary: dict) -> Path:
    seats = summary["seats"]
    fig = new_figure(6.8, 3.8)
    ax = fig.add_subplot()
    x = np.arange(len(seats))
    bottom = np.zeros(len(seats))
    for key, label, colour in _sources(summary):
        v = np.array([s["vp_sources"][key] for s in seats])
        ax.bar(x, v, bottom=bottom, color=colour, edgecolor="white", label=label)
        bottom += v
    ax.axhline(summary["scenario"]["vp_target"], color="#555555", linestyle="--", linewidth=1,
               label=f"target ({summary['scenario']['vp_target']} VP)")
    ax.set_xticks(x, [f"seat {s['seat']}" for s in seats])
    ax.set_ylabel("VP at the end of the game (mean)")
    ax.set_title("Where the VP come from, by seat", fontsize=10)
    legend(ax, fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return save_png(fig, path)


def vp_over_rolls_plot(path, summary: dict) -> Path:
    """One panel per seat: the median VP at each roll and the middle half of the games around it."""
    v = summary["vp_over_rolls"]
    seats = v["seats"]
    fig = new_figure(2.6 * len(seats) + 0.6, 3.6)
    axes = fig.subplots(1, len(seats), sharey=True)
    rolls = np.array(v["rolls"])
    target = summary["scenario"]["vp_target"]
    for i, (ax, seat) in enumerate(zip(axes, seats)):
        colour = hexplot.SEAT_COLOURS[i]
        ax.fill_between(rolls, seat["q25"], seat["q75"], color=colour, alpha=0.35, edgecolor="#555555",
                        linewidth=0.4, label="middle half of the games")
        ax.plot(rolls, seat["median"], color=colour, linewidth=2, label="median",
                path_effects=[patheffects.Stroke(linewidth=3.2, foreground="#333333"), patheffects.Normal()])
        ax.axhline(target, color="#555555", linestyle="--", linewidth=1, label=f"target ({target} VP)")
        ax.set_title(f"seat {i + 1}", fontsize=9)
        ax.set_xlabel("rolls since the start")
        ax.spines[["top", "right"]].set_visible(False)
    axes[0].set_ylabel("VP (a finished game keeps its last)")
    legend(axes[0], fontsize=7, loc="upper left")
    fig.suptitle(f"VP over rolls by seat: {plural(v['games'], 'game')} (the run's first, played again)", fontsize=10)
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
                  f"{summary['turn_cap']:,}-turn cap without a winner. **These are bots**: the figures say how the "
                  "seats fare under them, not at a table of people; the seat order moves with the bots' opening "
                  "draft (docs/seafarers/experiments.md).")]
    if "cloth_end" in summary:
        ce = summary["cloth_end"]
        head.append(("p", f"{pct(ce['share'])} of games (95% CI {ci_range(ce['ci95'], 1, pct)}) ended because only "
                          f"{ce['villages']} villages still held cloth (then the most VP wins, ties to the most "
                          "cloth); cloth held at the end, mean by seat: "
                          + ", ".join(num(c, 2) for c in summary["cloth"]) + "."))
    if "wonders" in summary:
        wd = summary["wonders"]
        head.append(("p", f"{pct(wd['finished']['share'])} of games (95% CI "
                          f"{ci_range(wd['finished']['ci95'], 1, pct)}) were won by finishing a wonder "
                          f"({wd['stages_to_win']} stages), {wd['at_target_vp']:,} at {sc['vp_target']} VP with more "
                          "stages than every opponent; stages built, mean by seat: "
                          + ", ".join(num(x, 2) for x in wd["stages"]) + "; cards held at the end (share of "
                          "seat-games): " + ", ".join(f"{k} {pct(v)}" for k, v in wd["cards"].items()) + "."))
    rows = [[f"seat {s['seat']}", s["bot"], f"{s['wins']:,}", pct(s["p_win"]), ci_range(s["ci95"], 1, pct),
             num(s["vp"]["mean"], 2), *[num(s["vp_sources"][k], 2) for k, _, _ in _sources(summary)]]
            for s in summary["seats"]]
    blocks = head + [("h2", "Wins by seat"),
                     ("table", ["seat", "bot", "wins (games)", "win rate (% of games)", "95% CI (Wilson, %)",
                                "VP", *[f"{label} (VP)" for _, label, _ in _sources(summary)]], rows,
                      ["l", "l"] + ["r"] * (4 + len(_sources(summary)))),
                     ("p", "VP: the seat's mean at the end of a game; the columns after it split that mean by "
                           "source, in VP (a city counts 2 VP, so 'cities' is twice the cities built).")]
    if len(summary["by_bot"]) > 1:
        brows = [[label, f"{b['seat_games']:,}", f"{b['wins']:,}", pct(b["p_win"]), ci_range(b["ci95"], 1, pct)]
                 for label, b in summary["by_bot"].items()]
        how = ("Every game was played once per rotation of the bots through the seats, on the same board, dice and "
               "deck; CIs are clustered by game." if summary.get("rotate") else
               "The bots kept their seats: seat and bot effects are mixed (--rotate separates them).")
        blocks += [("h2", "Wins by bot"), ("p", how),
                   ("table", ["bot", "seat-games", "wins (seat-games)", "win rate (% of seat-games)", "95% CI (%)"],
                    brows, ["l", "r", "r", "r", "r"])]
        if summary.get("bot_differences"):
            drows = [[name, points(d["mean_diff"]), points_range(d["ci95"]), pct(d["p_better"]), pct(d["p_worse"]),
                      "—" if d["p_value"] is None else f"{d['p_value']:.3g}"]
                     for name, d in summary["bot_differences"].items()]
            blocks += [("p", "Paired per game: the first bot's win rate over its seat-games of the game's rotations "
                             "minus the second's, in percentage points (Student-t over games)."),
                       ("table", ["bots", "difference (percentage points)", "95% CI (points)",
                                  "first ahead (% of games)", "second ahead (% of games)", "p (paired t)"], drows,
                        ["l", "r", "r", "r", "r", "r"])]
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


def write_play_report(out_dir, summary: dict, boards: dict | None = None) -> list[Path]:
    """win_rates.png, game_length.png, vp_over_rolls.png, vp_sources.png, the boards of the longest and shortest
    game (boards: PlayResult.boards), report.md and report.html."""
    out_dir = Path(out_dir)
    images = [("Win rate by seat with 95% CIs", "win_rates.png"), ("Game length in rolls", "game_length.png"),
              ("VP over rolls by seat: median and middle half", "vp_over_rolls.png"),
              ("VP sources by seat", "vp_sources.png")]
    written = [win_rates_plot(out_dir / "win_rates.png", summary), length_plot(out_dir / "game_length.png", summary),
               vp_over_rolls_plot(out_dir / "vp_over_rolls.png", summary),
               sources_plot(out_dir / "vp_sources.png", summary)]
    from analyzer.seafarers.scenarios import load_scenario

    scenario = load_scenario(summary["scenario"]["slug"], summary["scenario"]["players"])
    for name, end in (boards or {}).items():
        stop = f", stopped at the {summary['turn_cap']:,}-turn cap with no winner" if end.get("capped") else ""
        what = (f"The {name} game (game {end['game']}, {plural(end['rolls'], 'roll')}{stop}): the board at its end "
                "(a city is drawn as a settlement)")
        images.append((what, f"board_{name}.png"))
        written.append(hexplot.draw_board(out_dir / f"board_{name}.png", scenario, end["drawing"]["terrain"],
                                          end["drawing"]["number"], harbours=end["drawing"]["harbours"],
                                          settlements=end["drawing"]["settlements"], pieces=end["drawing"]["pieces"],
                                          title=f"The {name} game: game {end['game']}, {plural(end['rolls'], 'roll')}"
                                                + (" (turn cap)" if end.get("capped") else "")))
    if len(summary["by_bot"]) > 1:
        images.insert(1, ("Win rate by bot with 95% CIs", "bot_win_rates.png"))
        written.append(bot_rates_plot(out_dir / "bot_win_rates.png", summary))
    title, blocks = _blocks(summary, images)
    pictures = {name: (out_dir / name).read_bytes() for _alt, name in images}
    written.append(atomic_write_text(out_dir / "report.md", render_md(blocks)))
    written.append(atomic_write_text(out_dir / "report.html", render_html(blocks, title, pictures)))
    return written
