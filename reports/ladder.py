"""A ladder's words: the first line (does the verdict hold at every rung?), one sentence per question, the table of
every rung's figures with CIs (analyzer/ladder.py decides; this module only words it)."""

from __future__ import annotations

from pathlib import Path

from reports.document import num, pct, plural, points, points_range, write_report

__all__ = ["first_line", "ladder_table", "verdict_sentence", "write_ladder_report"]


def _figure(answer: dict) -> str:
    """`+4.2 points, 95% CI +2.3 to +6.2`, or `+4.2 points in every game alike` where there is no interval."""
    if answer["ci95"][0] is None:
        return f"{points(answer['edge'])} points in every game alike"
    return f"{points(answer['edge'])} points, 95% CI {points_range(answer['ci95'])}"


def _not_shown(answer: dict, subject: str) -> str:
    return f"no {subject} clearly under {answer['bot']} ({answer['favoured']} {_figure(answer)}: no edge shown)"


def verdict_sentence(v: dict) -> str:
    """One question's verdict over the rungs, with every rung's figure."""
    rungs = v["rungs"]
    noun = "favoured seat" if v["subject"] == "seat" else "strongest entrant"
    if v["kind"] == "holds":
        what = "is favoured" if v["subject"] == "seat" else "is the strongest"
        lead = v["favoured"].capitalize() if v["subject"] == "seat" else f"`{v['favoured']}`"
        return (f"{lead} {what} at every rung of the ladder ("
                + "; ".join(f"{a['bot']} {_figure(a)}" for a in rungs) + ")")
    parts = [f"{a['favoured']} under {a['bot']} ({_figure(a)})" if a["shown"] else _not_shown(a, v["subject"])
             for a in rungs]
    if v["kind"] == "changes":
        return f"The {noun} changes with the bots: " + ", ".join(parts)
    if v["kind"] == "partial":
        return f"The {noun} is {v['favoured']} where an edge is shown, but not at every rung: " + ", ".join(parts)
    return f"No rung shows a {noun}: " + ", ".join(parts)


def first_line(summary: dict) -> str:
    """The answer: whether every question's verdict holds at every rung; with one question, its sentence."""
    verdicts = summary["verdicts"]
    if len(verdicts) == 1:
        return verdict_sentence(verdicts[0]) + "."
    held = [v["question"] for v in verdicts if v["holds"]]
    lead = ("The verdict holds at every rung in every cell" if len(held) == len(verdicts) else
            f"The verdict holds at every rung in {len(held)} of {len(verdicts)} cells")
    sentences = [verdict_sentence(v) for v in verdicts]
    return lead + ": " + "; ".join(f"{v['question']}: {s[0].lower()}{s[1:]}" for v, s in zip(verdicts, sentences)) + "."


def ladder_table(v: dict) -> tuple[list[str], list[list[str]], list[str]]:
    """(headers, rows, align) of one question: per rung its items' win rates with CIs, the favoured item, its edge
    with the CI, shown or not, and the game length."""
    items = list(v["rungs"][0]["figures"])
    headers = ["bot", *[f"{item}, % (95% CI)" for item in items], "favoured", "edge (points)", "95% CI",
               "edge shown", "rolls (mean)"]
    rows = []
    for a in v["rungs"]:
        rolls = a.get("rolls")
        rows.append([f"`{a['bot']}`",
                     *[f"{pct(a['figures'][i]['p'])} ({pct(a['figures'][i]['ci95'][0])}–"
                       f"{pct(a['figures'][i]['ci95'][1])})" for i in items],
                     a["favoured"], points(a["edge"]), points_range(a["ci95"]), "yes" if a["shown"] else "no",
                     "—" if not rolls else num(rolls["mean"], 1)])
    return headers, rows, ["l", *["r"] * len(items), "l", "r", "r", "l", "r"]


def _blocks(summary: dict) -> tuple[str, list[tuple]]:
    title = (f"Catan: Seafarers — {summary['experiment'].removeprefix('seafarers ')} across a ladder of bots: "
             + ", ".join(summary["ladder"]))
    blocks = [("h1", title), ("p", first_line(summary))]
    for v in summary["verdicts"]:
        headers, rows, align = ladder_table(v)
        blocks += [("h2", v["question"]), ("p", verdict_sentence(v) + "."), ("table", headers, rows, align)]
    est = summary["estimate"]
    blocks += [("h2", "How to read it"), ("ul", [
        "Every rung plays the same games: the same seed, so the same boards, dice and decks; only the bots differ.",
        "A seat's edge is its win rate minus a fair seat's share, with its Wilson 95% CI; an entrant's is its paired "
        "lead over the runner-up. An edge is shown when its CI excludes no edge.",
        "The verdict holds when every rung shows an edge for the same seat (entrant); it changes when two rungs show "
        "edges for different ones; it is not shown at every rung when a rung's CI includes no edge.",
        f"Estimated before the run: {'up to' if est.get('upper_bound') else 'about'} {num(est['seconds'], 0)} s "
        f"for {plural(len(summary['ladder']), 'rung')}"
        + ("" if est["budget_seconds"] is None else f" (budget {num(est['budget_seconds'], 0)} s)")
        + f"; played in {num(summary['wall_seconds'], 0)} s.",
        "These are bots: each rung says how its bots fare, not how people do."])]
    shared = [a for a in summary["rungs"][0]["summary"].get("assumptions", [])
              if all(a in r["summary"].get("assumptions", []) for r in summary["rungs"])]
    if shared:  # the rules, boards and method every rung played under (what names a rung's bot differs)
        blocks += [("h2", "Data and assumptions"), ("ul", [str(a) for a in shared])]
    if summary.get("command"):
        blocks += [("h2", "Reproduce"), ("code", summary["command"])]
    return title, blocks


def write_ladder_report(out_dir, summary: dict) -> list[Path]:
    """report.md and report.html."""
    return write_report(out_dir, *_blocks(summary))
