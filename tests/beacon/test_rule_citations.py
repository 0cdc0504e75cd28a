"""rules.toml names the rulebook page of each rule it quotes by heading: the heading is on that page of seed 000
(issue 33's audit: the pier rule cited page 7, where seed 000 has it on page 8)."""

import re
from importlib.resources import files
from pathlib import Path

RULEBOOK = Path(__file__).resolve().parents[2] / "docs" / "rulebooks" / "000_e413b7b5f07f4277.txt"


def pages() -> dict[int, list[str]]:
    """Seed 000's pages (split at '---'), numbered by the number a page opens with, else the one before's + 1."""
    numbered, number = {}, 0
    for chunk in RULEBOOK.read_text(encoding="utf-8").split("\n---\n"):
        lines = [line.strip() for line in chunk.strip().splitlines()]
        number = int(lines[0]) if lines and lines[0].isdigit() else number + 1
        numbered[number] = lines
    return numbered


def citations() -> list[tuple[int, str]]:
    """Every 'page N ("Heading")' in rules.toml's comments, lines joined."""
    text = (files("analyzer.beacon") / "data" / "rules.toml").read_text(encoding="utf-8")
    comments = " ".join(line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#"))
    return [(int(n), heading) for n, heading in re.findall(r'[Pp]age (\d+) \("([^"]+)"\)', comments)]


def test_each_heading_rules_toml_cites_is_on_the_page_it_names():
    cited = citations()
    assert (8, "Cais") in cited and (7, "Moinhos de Vento") in cited
    book = pages()
    for page, heading in cited:
        assert heading in book[page], (page, heading, [n for n, lines in book.items() if heading in lines])
