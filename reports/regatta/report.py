"""The Regatta simulate/compare report: report.md and report.html (figures inlined), first line the answer."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
from matplotlib.ticker import MaxNLocator

from reports.document import render_html, render_md, reproduce_blocks
from reports.plots import new_figure, save_png


def race_length_figure(turns: np.ndarray, capped: np.ndarray, path: Path) -> Path:
    """Races that ended with a winner, one bar per turn count; the capped ones are counted in the title (at
    the cap they would squash every other bar)."""
    fig = new_figure(6, 3.2)
    ax = fig.add_subplot(1, 1, 1)
    won = turns[capped == 0]
    if won.size:
        ax.hist(won, bins=np.arange(won.min(), won.max() + 2) - 0.5, color="#4878a8", label="races with a winner")
    ax.set_xlabel("race length (turns, all players' turns counted)")
    ax.set_ylabel("races")
    ax.set_title(f"Race length distribution ({int((capped == 1).sum()):,} capped races not shown)")
    ax.legend()
    return save_png(fig, path)


def _win_bars(rows: list[dict], labels: list[str], fair: float, what: str, title: str, path: Path) -> Path:
    """Bars of rows' "win" shares with their "ci95" intervals, and the fair share."""
    fig = new_figure(6, 3.2)
    ax = fig.add_subplot(1, 1, 1)
    x = np.arange(len(rows))
    win = np.array([r["win"] for r in rows])
    err = np.array([[r["win"] - r["ci95"][0] for r in rows], [r["ci95"][1] - r["win"] for r in rows]])
    ax.bar(x, 100 * win, yerr=100 * err, capsize=4, color="#4878a8", label=f"{what} (95% CI)")
    ax.axhline(100 * fair, color="#c44e52", linestyle="--", label="fair share")
    ax.set_xticks(x, [textwrap.fill(label.replace(",", ", "), 16) for label in labels], fontsize=8)  # never overlap
    ax.set_ylabel(f"{what} (%)")
    ax.set_title(title)
    ax.legend()
    return save_png(fig, path)


def seat_figure(seat: list[dict], path: Path, unit: str = "boat") -> Path:
    """Win rate per boat or team (seat order) with its 95% Wilson interval, and the fair share."""
    return _win_bars(seat, [f"{unit} {s['seat']}" for s in seat], 1 / len(seat), "races won",
                     f"Win rate per {unit}, in playing order", path)


def bot_figure(bots: list[dict], path: Path) -> Path:
    """Each bot's share of the seat-races it won, with its 95% CI (seats of one race clustered)."""
    labels = [f"{b['bot']} ({b['seats']} seat{'s' if b['seats'] > 1 else ''})" for b in bots]
    return _win_bars(bots, labels, bots[0]["fair"], "seat-races won", "Win rate per bot", path)


def card_use_figure(names: list[str], per_race: np.ndarray, path: Path) -> Path:
    """Mean uses per race of each action kind (cards played, reveals, negates, trades)."""
    fig = new_figure(6, 3.2)
    ax = fig.add_subplot(1, 1, 1)
    ax.barh(np.arange(len(names)), per_race, color="#4878a8", label="mean per race")
    ax.set_yticks(np.arange(len(names)), names)
    ax.invert_yaxis()
    ax.set_xlabel("uses per race (all players)")
    ax.set_title("Card and action use")
    ax.legend()
    return save_png(fig, path)


def path_figure(tracks: np.ndarray, path: Path, stuck: int = 1000, least: int = 20) -> Path:
    """Each boat's path score to the sea over the turns: the median and the middle half (25-75%) of the races
    still running at that turn (shown while at least `least` are). A boat with no way to the sea (a score
    of `stuck` or more) is drawn on a "no way" line above every real path."""
    running = tracks >= 0
    finite = tracks[running & (tracks < stuck)]
    no_way = 5 * (int(np.percentile(finite, 99) if finite.size else 10) // 5 + 2)
    shown = np.where(tracks >= stuck, no_way, tracks)
    fig = new_figure(6.4, 3.6)
    ax = fig.add_subplot(1, 1, 1)
    colours = ("#24507a", "#c0392b", "#2e8b57", "#8e5ea2")
    for b in range(tracks.shape[2]):
        turn, mid, low, high = [], [], [], []
        for t in range(tracks.shape[1]):
            now = shown[:, t, b][running[:, t, b]]
            if now.size < least:
                break
            q = np.percentile(now, [25, 50, 75])
            turn.append(t), low.append(q[0]), mid.append(q[1]), high.append(q[2])
        c = colours[b % len(colours)]
        ax.fill_between(turn, low, high, color=c, alpha=0.15, linewidth=0, label=f"boat {b + 1}: 25-75% of races")
        ax.plot(turn, mid, color=c, linewidth=1.8, label=f"boat {b + 1}: median")
    ax.axhline(no_way, color="#555555", linestyle=":", label="no way to the sea (drawn here)")
    ax.set_ylim(0, no_way * 1.08)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("turns played (all players' turns counted)")
    ax.set_ylabel("path score to the sea\n(moves; a face-down tile 3)")
    ax.set_title(f"Path to the sea over the race ({tracks.shape[0]:,} races; while {least}+ still run)")
    ax.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.2))  # below: never over the bands
    return save_png(fig, path)


RULEBOOK = "the paper-boat regatta rulebook (Spanish)"


def _rules_text(rules_data: dict) -> str:
    """A summary's rules_data (analyzer.provenance.data_file) in words."""
    if rules_data["file"] == "packaged":
        return f"the packaged rules data (analyzer/regatta/data, sha256 {rules_data['sha256'][:12]})"
    return f"{rules_data['file']} (sha256 {rules_data['sha256'][:12]}) over the packaged rules data"


def reproduce(summary: dict) -> list:
    """The closing "Reproduce" section: the exact command, then what it rests on."""
    items = [f"seed: {summary['seed']} (--seed; the rulebook is {RULEBOOK})",
             f"rules: {_rules_text(summary['rules_data'])}"]
    if summary.get("variant_rules_data"):
        items.append(f"variant: {_rules_text(summary['variant_rules_data'])}")
    if summary.get("rule_options"):
        items.append("rule switches: " + ", ".join(f"{k}={str(v).lower()}" for k, v in summary["rule_options"].items()))
    items.append("versions: " + ", ".join(f"{k} {v}" for k, v in summary.get("versions", {}).items()))
    return reproduce_blocks(summary, items)


def write(stage: Path, headline: str, sections: list[tuple], turns: np.ndarray, capped: np.ndarray, summary: dict,
          seat: list[dict] | None = None, use: tuple | None = None, bots: list[dict] | None = None,
          tracks: np.ndarray | None = None) -> None:
    png = race_length_figure(turns, capped, stage / "race_length.png")
    images = {png.name: png.read_bytes()}
    if seat:
        unit = "team" if summary.get("team") else "boat"
        seat_png = seat_figure(seat, stage / "seat_win.png", unit)
        images[seat_png.name] = seat_png.read_bytes()
        sections = [*sections, ("img", f"Win rate per {unit}", seat_png.name)]
    if bots:
        bot_png = bot_figure(bots, stage / "bot_win.png")
        images[bot_png.name] = bot_png.read_bytes()
        sections = [*sections, ("img", "Win rate per bot", bot_png.name)]
    if tracks is not None:
        track_png = path_figure(tracks, stage / "path_over_turns.png")
        images[track_png.name] = track_png.read_bytes()
        sections = [*sections, ("img", "Path to the sea over the race", track_png.name)]
    if use:
        use_png = card_use_figure(*use, stage / "card_use.png")
        images[use_png.name] = use_png.read_bytes()
        sections = [*sections, ("img", "Card and action use", use_png.name)]
    blocks = [("h1", headline), *sections, ("img", "Race length distribution", png.name),
              ("h2", f"Assumptions (the rules in force where {RULEBOOK} is silent or open)"),
              ("ul", summary["assumptions"]), *reproduce(summary)]
    (stage / "report.md").write_text(render_md(blocks), "utf-8")
    (stage / "report.html").write_text(render_html(blocks, "Regatta", images), "utf-8")
