"""The `seafarers versus-catanatron` report: how our bots fare against catanatron's players in catanatron's engine,
one sentence and one table row per pairing (analyzer/seafarers/versus_catanatron.py)."""

from __future__ import annotations

from pathlib import Path

from reports.document import ci_range, num, pct, plural, reproduce_blocks, run_items, write_report

__all__ = ["headline", "pairing_sentence", "write_versus_report"]


def _format(summary: dict) -> str:
    p = summary["players"]
    return "1v1" if p == 2 else f"{p} players, ours in one seat against {p - 1} of theirs"


def pairing_sentence(pairing: dict) -> str:
    """One sentence: our bot's win rate against catanatron's with its CI, against the fair share, the length."""
    lo, hi = pairing["ci95"]
    fair = pairing["fair_share"]
    verdict = ("more than a fair seat's" if lo > fair else "less than a fair seat's" if hi < fair else
               "not measurably apart from a fair seat's")
    capped = f"; {plural(pairing['capped'], 'game')} reached catanatron's turn limit" if pairing["capped"] else ""
    return (f"`{pairing['ours']}` wins {pct(pairing['p_win'])} of {plural(pairing['games'], 'game')} against "
            f"catanatron's {pairing['theirs']} (95% CI {ci_range(pairing['ci95'], 1, pct)}), {verdict} "
            f"{pct(fair, 0)}; games last {num(pairing['turns']['mean'], 1)} of catanatron's turns "
            f"({num(pairing['rolls']['mean'], 1)} rolls){capped}.")


def headline(summary: dict) -> str:
    pairings = summary["pairings"]
    best = max(pairings, key=lambda p: p["p_win"])
    worst = min(pairings, key=lambda p: p["p_win"])
    where = f"In catanatron's engine ({_format(summary)})"
    fair = f"a fair seat wins {pct(1 / summary['players'], 0)}."
    if best["p_win"] == worst["p_win"]:
        who = "the pairing" if len(pairings) == 1 else f"every one of the {len(pairings)} pairings"
        return (f"{where}, our bot wins {pct(best['p_win'])} of its games in {who} (95% CI "
                f"{ci_range(best['ci95'], 1, pct)} for {plural(best['games'], 'game')}); " + fair)
    return (f"{where}, `{best['ours']}` does best against {best['theirs']}: {pct(best['p_win'])} (95% CI "
            f"{ci_range(best['ci95'], 1, pct)}); worst: `{worst['ours']}` against {worst['theirs']}, "
            f"{pct(worst['p_win'])} (95% CI {ci_range(worst['ci95'], 1, pct)}); " + fair)


def _bridge_line(pairing: dict) -> str:
    b = pairing["bridge"]
    fallbacks = sum(b["fallbacks"].values())
    kinds = ", ".join(f"{k} {v}" for k, v in b["fallbacks"].items())
    return (f"`{pairing['ours']}` against {pairing['theirs']}: {b['chosen']:,} of its {b['decisions']:,} decisions "
            f"were choices (the rest: catanatron offered one action); its own first choice was offered in "
            f"{b['first_choice']:,}" + (f", a fallback in {fallbacks:,} ({kinds})" if fallbacks else "")
            + (f", no action of ours offered in {b['unmapped']:,}" if b["unmapped"] else "") + ".")


def _blocks(summary: dict) -> tuple[str, list[tuple]]:
    c = summary["catanatron"]
    title = f"Our bots in catanatron's engine ({_format(summary)})"
    source = f" ({c['source']})" if c.get("source") else ""
    blocks = [("h1", title), ("p", headline(summary)), ("ul", [p["sentence"] for p in summary["pairings"]]),
              ("p", f"catanatron {c['version']}{source}, its base map (drawn from each game's seed) and its rules: "
                    f"{c['vps_to_win']} VP to win, a 7 discards half of a hand of more than {c['discard_limit']} "
                    f"({c.get('discards', 'at random')}), no domestic trade, at most {c['turns_limit']:,} turns. "
                    f"Seats rotated: {summary['seating']}. Catanatron counts a turn per player, the set-up's "
                    "placements included. "
                    "**These are bots**: the figures say how ours fare against catanatron's, not against people.")]
    rows = [[f"`{p['ours']}`", p["theirs"], f"{p['games']:,}", f"{p['wins']:,}", pct(p["p_win"]),
             ci_range(p["ci95"], 1, pct), pct(p["fair_share"], 0), f"{p['theirs_wins']:,}", f"{p['capped']:,}",
             num(p["turns"]["mean"], 1), ci_range(p["turns"]["ci95"], 1), num(p["rolls"]["mean"], 1),
             num(p["our_vp"]["mean"], 2)] for p in summary["pairings"]]
    blocks += [("h2", "Pairings"),
               ("table", ["ours", "theirs", "games", "our wins", "win rate", "95% CI (Wilson)", "fair share",
                          "their wins", "no winner", "turns (mean)", "95% CI (turns)", "rolls (mean)",
                          "our VP at the end (mean)"], rows, ["l", "l"] + ["r"] * 11)]
    seat_rows = [[f"`{p['ours']}`", p["theirs"]] + [f"{pct(s['p_win'])} of {s['games']:,}" if s["games"] else "—"
                                                    for s in p["by_seat"]] for p in summary["pairings"]]
    blocks += [("h2", "By our seat"),
               ("table", ["ours", "theirs"] + [f"seat {s}" for s in range(1, summary["players"] + 1)], seat_rows,
                ["l", "l"] + ["r"] * summary["players"])]
    blocks += [("h2", "The bridge"), ("ul", [_bridge_line(p) for p in summary["pairings"]]),
               ("p", "A fallback: our bot's first choice is not among catanatron's playable actions (e.g. a road "
                     "building card, which catanatron 3.2.1 lets only a player who could pay for a road play), so its "
                     "best-scored action that is offered was played. docs/seafarers/catanatron.md lists the rules "
                     "differences."),
               ("h2", "Players"), ("ul", [f"{k}: {v}" for k, v in summary["theirs_about"].items()]),
               ("h2", "Assumptions"), ("ul", summary["assumptions"])]
    games = summary["games"] * len(summary["pairings"])
    blocks += reproduce_blocks(summary, run_items(summary, plural(games, "game"), "games_per_second", "games"))
    return title, blocks


def write_versus_report(out_dir, summary: dict) -> list[Path]:
    """report.md and report.html."""
    return write_report(out_dir, *_blocks(summary))
