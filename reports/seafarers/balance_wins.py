"""The `balance --by wins` part of the balance report: the verdict in words, its table and three plots.

    blocks = wins_blocks(summary)                     # report blocks, placed before the income model's
    images = wins_plots(out_dir, summary, seats)      # [(alt, file name)]
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
from scipy.stats import binom

from reports.document import ci_range, num, pct, plural
from reports.plots import new_figure, save_png
from reports.seafarers import hexplot

__all__ = ["wins_blocks", "wins_headline", "wins_plots"]

EDGE = "#333333"  # marks are outlined so the white seat shows on white


def _bot(w: dict) -> str:
    """The bot of every seat with its opening, the default too (the seat order moves with it)."""
    from reports.seafarers.play import bot_phrase

    return bot_phrase(w["bot"], w.get("bot_spec", w["bot"]))


def _pts(x: float) -> str:
    return f"{x:+.1f}"


def _rate_ci(s: dict, label: str = "95% CI ") -> str:
    return f"{pct(s['win_rate'])} ({label}{ci_range(s['ci95'], 1, fmt=pct)})"


def _spread_ci(sd: dict) -> str:
    """A board spread's bootstrap 95% CI in points; "—" with one board (no spread to measure)."""
    if sd["ci95"][0] is None:
        return "—"
    return "none beyond the dice" if sd["ci95"][1] <= 0 else ci_range([100 * x for x in sd["ci95"]], 1)


def _shown(term: dict, key: str = "odds_ratio_ci95", none: float = 1.0) -> bool:
    """Does the term's 95% CI exclude no effect?"""
    lo, hi = term[key]
    return lo > none or hi < none


def _verdict(r: float | None) -> str:
    if r is None:
        return "too few boards to tell"
    if r >= 0.7:
        return "the fast model is enough to rank the seats of a board"
    if r >= 0.3:
        return "the fast model is a rough guide: check close calls with full games"
    return "the fast model does not tell which seat a board favours: play full games"


def wins_headline(summary: dict) -> list[str]:
    """The answer first: which seat wins most, how much boards move a seat's chance, and whether the income
    model's figure says the same."""
    w = summary["by_wins"]
    seats = w["seats"]
    best = max(seats, key=lambda s: s["win_rate"])
    worst = min(seats, key=lambda s: s["win_rate"])
    fair = w["fair_share"]
    lo, hi = best["ci95"]
    clear = lo > fair or worst["ci95"][1] < fair
    first = (f"By wins: over {plural(w['boards'], 'random board')} × {w['games_per_board']:,} full games "
             f"({_bot(w)} in every seat), seat {best['seat']} wins {_rate_ci(best)} of games and seat "
             f"{worst['seat']} {_rate_ci(worst)}, against a fair share of {pct(fair)}"
             + ("." if clear else ": no seat is shown to differ from the fair share."))
    spread = sorted(seats, key=lambda s: s["board_spread"]["sd"] or 0)[-1]
    sd = spread["board_spread"]
    lines = [first]
    if sd["sd"] is None:
        lines.append("How much boards matter beyond the dice needs at least 2 boards.")
    elif sd["ci95"][1] <= 0:  # every resample at or below the noise: no spread to report, not a zero-wide CI
        lines.append(f"No seat's chance of winning is shown to move from board to board beyond the dice: every "
                     f"seat's per-board win rates spread no more than the {num(100 * sd['noise_sd'], 1)} points of "
                     f"noise {w['games_per_board']:,} games on one board show alone.")
    else:
        lines.append(f"Boards matter beyond the dice: from one board to another a seat's chance of winning moves by "
                     f"{num(100 * sd['sd'], 1)} points (standard deviation, seat {spread['seat']}; 95% CI "
                     f"{_spread_ci(sd)}), where {w['games_per_board']:,} games on one board would show "
                     f"{num(100 * sd['noise_sd'], 1)} points of noise alone.")
    c, e = w["income_vs_wins"], w["expected_vs_wins"]
    if c is not None:
        best_x = max((c, e), key=lambda x: x["r"] if np.isfinite(x["r"]) else -2)
        which = "simulated income" if best_x is c else "expected income (pips)"
        lines.append(
            f"Does the fast income model tell the same? A seat's income advantage on a board correlates with its "
            f"win-rate advantage at r = {num(c['r'])} (95% CI {ci_range(c['ci95'])}) for the simulated income and "
            f"r = {num(e['r'])} ({ci_range(e['ci95'])}) for the expected income; corrected for the games' noise, "
            f"{num(best_x['r_corrected'])} for the {which}: {_verdict(best_x['r_corrected'])}.")
    model = w.get("model")
    if model and not model.get("estimable", True):
        lines.append(f"Which seat wins: the logistic model of a seat's wins is not estimable here: {model['reason']}.")
    elif model:
        shown = [t for t in model["terms"][1:] if _shown(t)]
        if shown:
            lines.append("Which seat wins (logistic model of a seat's wins, CIs clustered by board): " + "; ".join(
                f"{t['label']}: {_pts(t['points'][0])} points ({ci_range(t['points'][1:], 1)})" for t in shown)
                + ". The seat's other features show no effect measurable here.")
        else:
            lines.append("No feature of a seat predicts its win measurably here (every odds ratio's 95% CI holds 1).")
    board = w.get("board_model")
    if board:
        shown = [t for t in board["terms"][1:] if _shown(t, "ci95", 0.0)]
        lines.append(f"Which boards are unfair (the spread of a board's seat win rates, {num(w['mean_win_sd'], 1)} "
                     "points on average, dice included): "
                     + ("; ".join(f"{t['label']}: {_pts(t['coef'])} points ({ci_range(t['ci95'], 1)})" for t in shown)
                        + "; the other board features show no effect measurable here." if shown else
                        "no board feature predicts it measurably here."))
    return lines


def _fit_notes(fit: dict) -> str:
    """The features a fit left out (no spread in this scenario) and what statsmodels warned of."""
    return ((f" Left out (no spread in this scenario): {', '.join(fit['left_out'])}." if fit["left_out"] else "")
            + (f" statsmodels warned: {'; '.join(fit['warnings'])}." if fit.get("warnings") else ""))


def wins_blocks(summary: dict, images: list[tuple[str, str]]) -> list[tuple]:
    w = summary["by_wins"]
    rows = [[str(s["seat"]), f"{s['wins']:,}", _rate_ci(s, ""),
             "—" if s["board_spread"]["sd"] is None else
             f"{num(100 * s['board_spread']['sd'], 1)} ({_spread_ci(s['board_spread'])})",
             "—" if s["board_spread"]["observed_sd"] is None else num(100 * s["board_spread"]["observed_sd"], 1),
             num(100 * s["board_spread"]["noise_sd"], 1), num(s["income"], 3), num(s["expected"], 3)]
            for s in w["seats"]]
    blocks: list[tuple] = [
        ("h2", "Seats by wins"),
        ("p", f"{w['games']:,} full games: {w['games_per_board']:,} on each of {plural(w['boards'], 'board')}, every "
              f"seat played by {_bot(w)}; "
              + ("every game had a winner" if w["decided_share"] == 1 else
                 f"{pct(w['decided_share'])} of games had a winner (the rest hit the turn cap)")
              + ". Win rate: games won, 95% Wilson interval with a board's games as one cluster. Spread over "
              "boards: the standard deviation of the seat's per-board win rate beyond the dice (observed less "
              "the binomial noise of a board's games), in points, with a bootstrap CI over boards."),
        ("table", ["seat", "wins (games)", "win rate, % of games (95% CI)", "spread over boards, points (95% CI)",
                   "observed spread (points)", "noise alone (points)", "income (cards/roll)",
                   "expected income (cards/roll)"], rows, ["l"] + ["r"] * 7)]
    sections = []  # (title, text, table header, rows)
    model = w.get("model")
    if model and not model.get("estimable", True):
        blocks += [("h2", "What predicts a seat's win"),
                   ("p", f"Not estimable: {model['reason']}." + _fit_notes(model))]
    elif model:
        sections.append((
            "What predicts a seat's win",
            f"Binomial logistic regression of each seat's wins out of {w['games_per_board']:,} on "
            f"{plural(model['rows'], 'board-seat')}, CIs clustered by board; points: the change of a fair share "
            f"({pct(w['fair_share'])}) of wins. The features explain {pct(model['deviance_explained'])} of the "
            "deviance." + _fit_notes(model),
            ["feature", "odds ratio (95% CI)", "win rate, percentage points (95% CI)", "p"],
            [[t["label"], f"{num(t['odds_ratio'], 3)} ({ci_range(t['odds_ratio_ci95'], 3)})",
              f"{_pts(t['points'][0])} ({ci_range(t['points'][1:], 1)})", f"{t['p_value']:.2g}"]
             for t in model["terms"][1:]]))
    board = w.get("board_model")
    if board:
        sections.append((
            "Which boards are unfair",
            f"Least squares of a board's unfairness (the standard deviation of its seats' win rates, in points; "
            f"{num(w['mean_win_sd'], 1)} on average, the dice's noise included) on the board's features, per "
            f"standard deviation, with robust (HC3) 95% CIs over {plural(board['rows'], 'board')}; R² "
            f"{num(board['r2'])}." + _fit_notes(board),
            ["board feature", "unfairness, percentage points (95% CI)", "p"],
            [[t["label"], f"{_pts(t['coef'])} ({ci_range(t['ci95'], 1)})", f"{t['p_value']:.2g}"]
             for t in board["terms"][1:]]))
    for title, text, header, table in sections:
        blocks += [("h2", title), ("p", text), ("table", header, table, ["l"] + ["r"] * (len(header) - 1))]
    for key, label in (("fairest_board", "Fairest"), ("least_fair_board", "Least fair")):
        b = w[key]
        rates = ", ".join(f"seat {i + 1} {pct(r)}" for i, r in enumerate(b["win_rates"]))
        blocks.append(("p", f"{label} board drawn by wins: #{b['board']} ({rates}; each within about "
                            f"±{num(100 * (b['ci95'][0][1] - b['ci95'][0][0]) / 2, 0)} points by the dice)."))
    if images:
        blocks += [("img", alt, name) for alt, name in images]
    return blocks


def wins_plots(out_dir, summary: dict, seats: pl.DataFrame) -> list[tuple[str, str]]:
    out_dir = Path(out_dir)
    w = summary["by_wins"]
    images = []
    if w["income_vs_wins"] is not None:
        advantage_scatter(out_dir / "wins_vs_income.png", summary, seats)
        images.append(("A seat's win-rate advantage on a board against its income advantage there",
                       "wins_vs_income.png"))
    board_spread(out_dir / "board_spread.png", summary, seats)
    images.append(("Per-board win rate of each seat against what the dice alone would spread", "board_spread.png"))
    if w.get("model") and w["model"].get("estimable", True):
        model_forest(out_dir / "win_model.png", summary)
        images.append(("What predicts a seat's win: each feature's effect in points of win rate with 95% CIs",
                       "win_model.png"))
    return images


def _by_board(seats: pl.DataFrame, column: str, players: int) -> np.ndarray:
    v = seats.sort(["board", "seat"])[column].to_numpy().astype(np.float64).reshape(-1, players)
    return v - v.mean(axis=1, keepdims=True)


def advantage_scatter(path, summary: dict, seats: pl.DataFrame) -> Path:
    w = summary["by_wins"]
    players = len(w["seats"])
    y = 100 * _by_board(seats, "win_rate", players)
    fig = new_figure(10, 4.2)
    axes = fig.subplots(1, 2, sharey=True)
    for ax, (column, key, label) in zip(axes, (("income_total", "income_vs_wins", "simulated income"),
                                              ("expected_total", "expected_vs_wins", "expected income"))):
        x = _by_board(seats, column, players)
        points = [ax.scatter(x[:, s], y[:, s], s=14, color=hexplot.SEAT_COLOURS[s], edgecolor=EDGE, linewidth=0.4,
                             alpha=0.8, label=f"seat {s + 1}") for s in range(players)]
        c = w[key]
        xs = np.linspace(x.min(), x.max(), 2)
        (line,) = ax.plot(xs, 100 * c["slope"] * xs, color="#111111", linewidth=1.5,
                          label=f"least squares: {num(100 * c['slope'] * 0.1, 1)} points per 0.1 card/roll")
        ax.axhline(0, color="#999999", linewidth=0.8)
        ax.axvline(0, color="#999999", linewidth=0.8)
        ax.set_xlabel(f"{label} less the board's mean (cards per roll)")
        ax.set_title(f"{label}: r = {num(c['r'])} (95% CI {ci_range(c['ci95'])})", fontsize=10)
        ax.spines[["top", "right"]].set_visible(False)
        ax.add_artist(ax.legend(handles=[line], fontsize=8, loc="lower right"))
        if ax is axes[0]:
            ax.legend(handles=points, fontsize=8, loc="upper left")
    axes[0].set_ylabel("seat's win rate less its board's mean (points)")
    fig.suptitle(f"Each point: one seat on one of {w['boards']:,} boards ({w['games_per_board']:,} games each); "
                 "expected income: pips / 36 of the seat's draft, simulated: after the robber", fontsize=10)
    fig.tight_layout()
    return save_png(fig, path)


def board_spread(path, summary: dict, seats: pl.DataFrame) -> Path:
    """Per seat: the histogram of its per-board win rates, and the binomial spread the dice alone would give
    every board at the seat's mean rate."""
    w = summary["by_wins"]
    players, m = len(w["seats"]), w["games_per_board"]
    rates = seats.sort(["board", "seat"])["win_rate"].to_numpy().reshape(-1, players)
    fig = new_figure(2.6 * players + 0.6, 3.4)
    axes = fig.subplots(1, players, sharey=True, sharex=True)
    bins = np.linspace(0, 1, min(m, 25) + 1)
    for s, ax in enumerate(axes):
        ax.hist(100 * rates[:, s], bins=100 * bins, color=hexplot.SEAT_COLOURS[s], edgecolor=EDGE, linewidth=0.5,
                label="boards drawn")
        p = w["seats"][s]["win_rate"]
        k = np.arange(m + 1)
        per_bin = np.histogram(k / m, bins=bins, weights=binom.pmf(k, m, p) * len(rates))[0]
        ax.stairs(per_bin, 100 * bins, color="#111111", linewidth=1.4, label="dice alone (every board alike)")
        ax.axvline(100 * w["fair_share"], color="#555555", linestyle="--", linewidth=1, label="fair share")
        sd = w["seats"][s]["board_spread"]
        ax.set_title(f"seat {s + 1}: {pct(p)}, board sd {num(100 * (sd['sd'] or 0), 1)} pts", fontsize=9)
        ax.set_xlabel("win rate on a board (%)")
        ax.spines[["top", "right"]].set_visible(False)
    axes[0].set_ylabel("boards")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=8, loc="lower center", ncol=3, frameon=False)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return save_png(fig, path)


def model_forest(path, summary: dict) -> Path:
    """Left: which seat wins (the seat model's terms as points of a fair share of wins); right, where fitted: which
    boards are unfair (the board model's terms as points of a board's win-rate spread)."""
    w = summary["by_wins"]
    panels = [(w["model"]["terms"][1:], lambda t: t["points"], "odds_ratio_ci95", 1.0,
               f"change of a fair share ({pct(w['fair_share'])}) of wins, points", "Which seat wins")]
    if w.get("board_model"):
        panels.append((w["board_model"]["terms"][1:], lambda t: [t["coef"], *t["ci95"]], "ci95", 0.0,
                       "change of a board's seat spread, points", "Which boards are unfair"))
    heights = [len(p[0]) + 1.5 for p in panels]
    fig = new_figure(9, 0.4 * sum(heights) + 0.6)
    axes = np.atleast_1d(fig.subplots(len(panels), 1, gridspec_kw={"height_ratios": heights}))
    for ax, (terms, value, key, none, xlabel, title) in zip(axes, panels):
        terms = terms[::-1]
        y = np.arange(len(terms))
        v = np.array([value(t) for t in terms])
        shown = [_shown(t, key, none) for t in terms]
        ax.errorbar(v[:, 0], y, xerr=[v[:, 0] - v[:, 1], v[:, 2] - v[:, 0]], fmt="none", ecolor="#555555",
                    capsize=3)
        ax.scatter(v[:, 0], y, color=["#c0392b" if s else "#24507a" for s in shown], zorder=3)
        ax.axvline(0, color="#999999", linewidth=1)
        ax.set_yticks(y, [t["label"] for t in terms], fontsize=8)
        ax.set_xlabel(xlabel + " (95% CI)", fontsize=9)
        ax.set_title(title + " (red: the CI excludes no effect)", fontsize=10)
        ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return save_png(fig, path)
