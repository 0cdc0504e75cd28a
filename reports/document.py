"""Reports as documents: a list of simple blocks rendered to Markdown and to one self-contained
HTML page, so both files always carry the same content; number formats shared by every report.

Blocks: ("h1"|"h2"|"p"|"warn", text); ("table", headers, rows, align); ("ul", items);
("img", alt, filename); ("code", text).
"""

from __future__ import annotations

import base64
import html
import math
import re
from typing import Any

# The core's lines show numbers these ways too, so they live below, in analyzer/formats.py; the reports take them
# from here with the rest of their number wording.
from analyzer.formats import num as num
from analyzer.formats import plural as plural
from analyzer.formats import rate as rate


def pct(p: Any, digits: int = 1) -> str:
    """Percent with ``digits`` decimals, more when needed so that 0 < p < 1 never shows as 0% or 100%."""
    if p is None or not math.isfinite(float(p)):
        return "—"
    v = 100.0 * float(p)
    if v <= 0.0 or v >= 100.0:
        return f"{v:.0f}%"
    d = digits
    while d < 6 and (round(v, d) == 0.0 or round(v, d) == 100.0):
        d += 1
    return f"{v:.{d}f}%"


def points(share: Any, digits: int = 1) -> str:
    """A difference of two shares in signed percentage points: `+3.2`, `-0.4`, never `-0.0`; "—" for none."""
    if share is None or not math.isfinite(float(share)):
        return "—"
    v = round(100.0 * float(share), digits)
    return f"{v if v != 0 else 0.0:+.{digits}f}"


def _apart(lo: float, hi: float, digits: int, fmt) -> int:
    """The digits that show two different bounds as two numbers (at most 4 more): never a zero-wide interval in
    print for one that has a width."""
    d = digits
    while lo != hi and d < digits + 4 and fmt(lo, d) == fmt(hi, d):
        d += 1
    return d


def points_range(ci: Any, digits: int = 1) -> str:
    """An interval of share differences in signed points: `+2.4 to +4.0`; "—" where there is none."""
    lo, hi = ci if ci else (None, None)
    if lo is None or hi is None:
        return "—"
    d = _apart(lo, hi, digits, points)
    return f"{points(lo, d)} to {points(hi, d)}"


def ci_range(ci: Any, digits: int = 2, fmt=num) -> str:
    """A confidence interval as "lo–hi" ("lo to hi" below zero), "—" where there is none: one value
    says nothing about the spread (stats.mean_ci gives None bounds)."""
    lo, hi = ci if ci else (None, None)
    if lo is None or hi is None:
        return "—"
    d = _apart(lo, hi, digits, fmt)
    return f"{fmt(lo, d)}{'–' if lo >= 0 else ' to '}{fmt(hi, d)}"


def ci_phrase(ci: Any, n: int, digits: int = 2, games: int | None = None) -> str:
    """ "95% CI lo–hi" of a mean over n values (from `games` games when clustered by game), or why
    there is none (stats.mean_ci, stats.clustered_mean_ci)."""
    text = ci_range(ci, digits)
    if text != "—":
        return f"95% CI {text}"
    if n == 1:
        return "no 95% CI from one value"
    return "no 95% CI from one game" if games == 1 else "no 95% CI: no spread to measure"


def integer(x: Any) -> str:
    return "—" if x is None else f"{int(x):,}"


# --------------------------------------------------------------------------- document model
# Blocks: ("h1"|"h2"|"p"|"warn", text) ; ("table", headers, rows, align) ; ("ul", items) ;
# ("img", alt, filename) ; ("code", text)


def render_md(blocks: list[tuple]) -> str:
    out: list[str] = []
    for b in blocks:
        kind = b[0]
        if kind == "h1":
            out.append(f"# {b[1]}")
        elif kind == "h2":
            out.append(f"## {b[1]}")
        elif kind == "p":
            out.append(b[1])
        elif kind == "warn":
            out.append(f"> **Warning.** {b[1]}")
        elif kind == "table":
            headers, rows, align = b[1], b[2], b[3]
            cell = lambda s: str(s).replace("|", "\\|").replace("\n", " ")  # noqa: E731
            out.append("| " + " | ".join(cell(h) for h in headers) + " |")
            out.append("|" + "|".join("---:" if a == "r" else "---" for a in align) + "|")
            for row in rows:
                out.append("| " + " | ".join(cell(c) for c in row) + " |")
        elif kind == "ul":
            out.append("\n".join(f"- {item}" for item in b[1]))
        elif kind == "img":
            out.append(f"![{b[1]}]({b[2]})")
        elif kind == "code":
            out.append("```\n" + b[1] + "\n```")
        else:  # pragma: no cover - programming error
            raise ValueError(kind)
        out.append("")
    return "\n".join(out).rstrip() + "\n"


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:980px;margin:2em auto;
padding:0 1em;color:#1d2733;line-height:1.45}
h1{font-size:1.55em;border-bottom:2px solid #24507a;padding-bottom:.25em;overflow-wrap:anywhere}
h2{font-size:1.2em;margin-top:1.8em;color:#24507a}
p.headline{font-size:1.12em;background:#eef4fa;border-left:4px solid #24507a;padding:.6em .9em}
div.table{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.6em 0;font-size:.93em}
th,td{border:1px solid #d3dbe3;padding:.28em .7em}
th{background:#eef2f6;text-align:left}
td.r,th.r{text-align:right;font-variant-numeric:tabular-nums}
img{max-width:100%;height:auto;display:block;margin:.8em 0}
.warn{background:#fff4e0;border-left:4px solid #e69500;padding:.6em .9em}
pre{background:#f4f6f8;padding:.7em;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}
code{overflow-wrap:anywhere}
td code,th code{overflow-wrap:normal}
p,li{overflow-wrap:anywhere}
""".strip()


def _inline(text: str) -> str:
    """Escaped text with the two Markdown marks reports use: **bold** and `code`."""
    out = html.escape(text)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    # a long bot or policy name may break after ':', ',' or '=' (value:<wbr>opening=pips), not inside a word
    return re.sub(r"`([^`]+)`", lambda m: "<code>" + re.sub(r"([:,=])", r"\1<wbr>", m[1]) + "</code>", out)


def render_html(blocks: list[tuple], title: str, images: dict[str, bytes]) -> str:
    e = html.escape
    body: list[str] = []
    first_p = True
    for b in blocks:
        kind = b[0]
        if kind == "h1":
            body.append(f"<h1>{_inline(b[1])}</h1>")
        elif kind == "h2":
            body.append(f"<h2>{_inline(b[1])}</h2>")
        elif kind == "p":
            cls = ' class="headline"' if first_p else ""
            first_p = False
            body.append(f"<p{cls}>{_inline(b[1])}</p>")
        elif kind == "warn":
            body.append(f'<p class="warn"><strong>Warning.</strong> {_inline(b[1])}</p>')
        elif kind == "table":
            headers, rows, align = b[1], b[2], b[3]
            cls = lambda a: ' class="r"' if a == "r" else ""  # noqa: E731
            head = "".join(f"<th{cls(a)}>{_inline(str(h))}</th>" for h, a in zip(headers, align))
            trs = "".join("<tr>" + "".join(f"<td{cls(a)}>{_inline(str(c))}</td>" for c, a in zip(row, align))
                          + "</tr>" for row in rows)
            body.append(f'<div class="table"><table><thead><tr>{head}</tr></thead><tbody>{trs}</tbody></table></div>')
        elif kind == "ul":
            body.append("<ul>" + "".join(f"<li>{_inline(item)}</li>" for item in b[1]) + "</ul>")
        elif kind == "img":
            data = base64.b64encode(images[b[2]]).decode("ascii")
            body.append(f'<img alt="{e(b[1])}" src="data:image/png;base64,{data}">')
        elif kind == "code":
            body.append(f"<pre><code>{e(b[1])}</code></pre>")
        else:  # pragma: no cover
            raise ValueError(kind)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{e(title.replace('`', ''))}</title>\n<style>\n{_CSS}\n</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


# --------------------------------------------------------------------------- content


def write_report(out_dir, title: str, blocks: list[tuple], images: dict[str, bytes] | None = None) -> list:
    """report.md and report.html of `blocks` in out_dir (the paths written)."""
    from pathlib import Path

    from analyzer.io import atomic_write_text

    out_dir = Path(out_dir)
    return [atomic_write_text(out_dir / "report.md", render_md(blocks)),
            atomic_write_text(out_dir / "report.html", render_html(blocks, title, images or {}))]


def run_items(summary: dict, count: str, rate_key: str, unit: str) -> list[str]:
    """Seed, size of the run, versions and wall time: the facts that reproduce a report."""
    items = [f"seed: {summary['seed']}", count,
             "versions: " + ", ".join(f"{k} {v}" for k, v in summary.get("versions", {}).items())]
    if summary.get("wall_seconds") is not None:
        items.append(f"wall time: {num(summary['wall_seconds'], 1)} s ({num(summary.get(rate_key), 0)} {unit}/s)")
    return items


def reproduce_blocks(summary: dict, items: list[str]) -> list:
    """The closing "Reproduce" section: the command line, then the run's facts."""
    blocks = [("h2", "Reproduce")]
    if summary.get("command"):
        blocks.append(("code", str(summary["command"])))
    return blocks + [("ul", items)]
