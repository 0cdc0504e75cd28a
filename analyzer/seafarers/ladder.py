"""`--ladder` for seats, balance --by wins and tournament: what changes from rung to rung (the bot), how big a run is
(for the estimate), and each rung's answers read from the experiment's own summary (analyzer/ladder.py judges them).

A seat's answer: the seat with the highest win rate, its edge over a fair seat's share and the edge's Wilson CI; shown
when the CI's lower end is above 0. A tournament's: the entrant with the highest win rate, its paired lead over the
runner-up with its CI; shown when the tournament calls it clear (the CI's lower end above 0).
"""

from __future__ import annotations

from analyzer.errors import UserError
from analyzer.ladder import question_verdict

__all__ = ["EXPERIMENTS", "PROBE_GAMES", "check_rung", "ladder_summary", "probe_options", "rung_options"]

EXPERIMENTS = ("seats", "balance", "tournament")
PROBE_GAMES = 16  # games each rung plays for the estimate (per cell; balance: per board, on PROBE_BOARDS boards)
PROBE_BOARDS = 2


def _with_bot(rung: str, entrant: str) -> str:
    """An entrant as the rung's bot: the rung's name and parameters, then the entrant's parameters (its name is the
    rung's stand-in): rung `rollout:playouts=8`, entrant `value:opening=pips` -> `rollout:playouts=8,opening=pips`."""
    params = entrant.partition(":")[2].strip()
    return rung if not params else rung + ("," if ":" in rung else ":") + params


def entrant_display(entrant: str) -> str:
    """How a ladder's answers name an entrant: its parameters (the bot's name changes with the rung)."""
    return entrant.partition(":")[2].strip() or entrant.partition(":")[0].strip()


def rung_options(experiment: str, rung: str, options: dict) -> dict:
    """The experiment's options with the rung's bot in place."""
    if experiment == "tournament":
        from analyzer.lineup import split_arms

        return {**options, "entrants": [_with_bot(rung, e) for e in split_arms(options.get("entrants") or [],
                                                                                  "--entrants", "bot")]}
    return {**options, "bot": rung}


def check_rung(experiment: str, options: dict):
    """A checker of one rung's bot text for analyzer.ladder.ladder_rungs: its parsed label (a one-line UserError on
    an unknown bot or parameter); for a tournament, every entrant as that rung's bot."""
    from analyzer.seafarers.bots import parse_bot

    if experiment not in EXPERIMENTS:
        raise UserError(f"--ladder is for {', '.join(EXPERIMENTS)}, not {experiment}")
    if experiment == "balance" and options.get("by") != "wins":
        raise UserError("--ladder: only with --by wins (the income model plays no bots)")
    if options.get("checkpoint") is not None:
        raise UserError("--ladder plays several runs: --checkpoint is for one run; leave it out")
    if experiment != "tournament" and options.get("bot") is not None:
        raise UserError("--ladder names the bots: leave --bot out")

    def check(rung: str) -> str:
        for bot in rung_options(experiment, rung, options).get("entrants", [rung]):
            parse_bot(bot)
        return parse_bot(rung).label
    return check


def probe_options(experiment: str, options: dict) -> tuple[dict, float]:
    """(the options of a small run of the same games, the full run's size over the small one's): the estimate times
    the small run's play. With --precision the size is --max-games: the estimate is an upper bound."""
    if experiment == "balance":
        from analyzer.seafarers.balance_wins import DEFAULT_GAMES_PER_BOARD

        boards, per_board = options.get("boards", 1000), options.get("games_per_board") or DEFAULT_GAMES_PER_BOARD
        small_boards, small_games = min(boards, PROBE_BOARDS), min(per_board, PROBE_GAMES)
        return ({**options, "boards": small_boards, "games_per_board": small_games},
                boards * per_board / (small_boards * small_games))
    if options.get("precision") is not None:  # a precision run stops by --max-games at the latest
        from analyzer.runner import DEFAULT_MAX_GAMES

        games = options.get("max_games") or DEFAULT_MAX_GAMES
    else:
        games = options.get("games") or 1000
    small = {k: v for k, v in options.items() if k not in ("precision", "min_games", "max_games")}
    return {**small, "games": min(games, PROBE_GAMES)}, games / min(games, PROBE_GAMES)


def play_seconds(experiment: str, summary: dict) -> float:
    """Seconds the run's games took to play (start-up left out)."""
    if experiment == "balance":
        w = summary["by_wins"]
        return w["games"] / w["games_per_second"] if w["games_per_second"] else 0.0
    return summary["run"]["wall_seconds"]


def _seat_answer(rung: str, seats: list[dict], fair: float, rate: str, rolls: dict | None) -> dict:
    best = max(seats, key=lambda s: s[rate])
    lo, hi = best["ci95"]
    return {"bot": rung, "favoured": f"seat {best['seat']}", "edge": best[rate] - fair, "ci95": [lo - fair, hi - fair],
            "shown": lo > fair, "figures": {f"seat {s['seat']}": {"p": s[rate], "ci95": list(s["ci95"])}
                                            for s in seats}, "fair_share": fair, "rolls": rolls}


def answers(experiment: str, rung: str, summary: dict, entrants: list[str] | None = None) -> list[tuple[str, dict]]:
    """(question, the rung's answer) for every question the experiment's summary answers."""
    if experiment == "seats":
        return [(f"{c['name']}, {c['players']} players",
                 _seat_answer(rung, c["seats"], c["fair_share"], "p_win", c["rolls"])) for c in summary["cells"]]
    if experiment == "balance":
        s, w = summary["scenario"], summary["by_wins"]
        return [(f"{s['name']}, {s['players']} players", _seat_answer(rung, w["seats"], w["fair_share"], "win_rate",
                                                                        None))]
    s, top = summary["scenario"], summary["strongest"]
    shown_as = {e["label"]: entrant_display(original) for e, original in zip(summary["entrants"], entrants)}
    lo, hi = top["ci95"]
    answer = {"bot": rung, "favoured": shown_as[top["label"]], "runner_up": shown_as[top["runner_up"]],
              "edge": top["difference"], "ci95": [lo, hi], "shown": bool(top["clear"]),
              "figures": {shown_as[label]: {"p": b["p_win"], "ci95": list(b["ci95"])}
                          for label, b in summary["by_entrant"].items()},
              "fair_share": summary["fair_share"], "rolls": summary["rolls"]}
    return [(f"{s['name']}, {s['players']} players", answer)]


def ladder_summary(experiment: str, rungs: list[str], summaries: list[dict], options: dict, estimate: dict,
                   command: str) -> dict:
    """The ladder's summary: every question's verdict over the rungs, each rung's own summary, the estimate."""
    from analyzer.lineup import split_arms

    entrants = split_arms(options["entrants"], "--entrants", "bot") if experiment == "tournament" else None
    per_rung = [answers(experiment, rung, s, entrants) for rung, s in zip(rungs, summaries)]
    subject = "entrant" if experiment == "tournament" else "seat"
    verdicts = [question_verdict(question, subject, [r[i][1] for r in per_rung])
                for i, (question, _) in enumerate(per_rung[0])]
    first = summaries[0]
    return {"experiment": f"seafarers {experiment}", "command": command, "seed": first.get("seed"),
            "ladder": rungs, "holds": all(v["holds"] for v in verdicts), "verdicts": verdicts,
            "estimate": estimate, "entrants": entrants,
            "common_random_numbers": "every rung plays the same games: the same seed, so the same boards, dice "
                                     "and decks; only the bots differ",
            "rungs": [{"bot": rung, "summary": s} for rung, s in zip(rungs, summaries)],
            "wall_seconds": sum(s.get("wall_seconds") or 0 for s in summaries)}
