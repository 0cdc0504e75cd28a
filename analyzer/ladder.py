"""A verdict checked across bot strength: the same experiment played once per rung of a ladder of bots, on the same
games (the same seed: the same boards, dice and decks), and whether its verdict holds at every rung.

Each rung gives, for each question the experiment answers (the favoured seat of a scenario, the strongest entrant),
its answer: the favoured item, its edge and the edge's 95% CI, and whether the CI shows an edge (excludes none). The
verdict of a question over the rungs:

- "holds": every rung shows an edge, and for the same item;
- "changes": two rungs show an edge for different items;
- "partial": the rungs that show an edge agree, but at least one rung does not show one (its CI includes no edge);
- "none": no rung shows an edge.

Only "holds" is a verdict that holds at every rung of the ladder.
"""

from __future__ import annotations

from analyzer.errors import UserError

__all__ = ["KINDS", "ladder_rungs", "question_verdict"]

KINDS = ("holds", "changes", "partial", "none")


def ladder_rungs(text, check_bot) -> list[str]:
    """The rungs' bot texts from `--ladder value,planner,rollout:playouts=8` (a bot's parameters follow its name after
    a colon, as in --bots), each checked by `check_bot` (a one-line UserError on an unknown bot); at least 2, each
    once."""
    from analyzer.lineup import split_arms

    rungs = split_arms(text, "--ladder", "bot")
    if len(rungs) < 2:
        raise UserError(f"--ladder names {len(rungs)} bot ('{rungs[0]}'): a ladder needs at least 2 rungs (to play "
                        "one bot, leave --ladder out)")
    seen: dict[str, str] = {}
    for rung in rungs:
        key = check_bot(rung)
        if key in seen:
            raise UserError(f"--ladder: '{seen[key]}' and '{rung}' are the same bot; name each rung once")
        seen[key] = rung
    return rungs


def question_verdict(question: str, subject: str, answers: list[dict]) -> dict:
    """The verdict of one question over the rungs. `answers`, one per rung in ladder order: {"bot", "favoured" (the
    item a reader names, e.g. "seat 1"), "edge" (a share), "ci95" ([lo, hi] of the edge), "shown" (the CI excludes
    no edge)}. `subject` names what is favoured ("seat", "entrant")."""
    shown = [a for a in answers if a["shown"]]
    items = list(dict.fromkeys(a["favoured"] for a in shown))
    if len(items) > 1:
        kind = "changes"
    elif not shown:
        kind = "none"
    else:
        kind = "holds" if len(shown) == len(answers) else "partial"
    return {"question": question, "subject": subject, "kind": kind, "holds": kind == "holds",
            "favoured": items[0] if kind in ("holds", "partial") else None, "rungs": answers}
