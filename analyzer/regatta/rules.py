"""Regatta rules data (data/*.toml, or a --rules file over them), checked and turned into arrays.

A bad file is one UserError line naming the file, the entry and the problem (the CLI exits 2)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from analyzer.errors import UserError
from analyzer.io import read_data_file

SIDES = "NESW"  # bit i of an openings mask: N=1, E=2, S=4, W=8
PILES = ("river", "rock", "goal", "start")  # tile kinds; a rock comes from the river pile
MARKS = ("none", "event", "effect")
CARD_ACTIONS = {"swap_adjacent": 3, "swap_any": 4, "advance_one": 5, "advance_two": 6, "rotate": 7, "negate": 9}
EFFECTS = ("draw", "lose", "rotate_here", "back", "skip_reveal", "extra_play")
FILES = ("rules.toml", "tiles.toml", "cards.toml")


@dataclass(frozen=True)
class Rules:
    rows: int
    cols: int
    deal: int
    limit: int
    team_limit: int
    draw_to: int
    plays: int
    turn_cap: int
    tile_kind: np.ndarray  # [tile] index into PILES
    tile_open: np.ndarray  # [tile] openings mask as printed
    tile_mark: np.ndarray  # [tile] index into MARKS
    tile_sea: np.ndarray  # [tile] 1: the goal tile with the exit to the sea
    card_names: tuple[str, ...]
    card_actions: np.ndarray  # [card type, 2] action kind codes, -1 for none
    card_count: np.ndarray  # [card type]
    ev_names: tuple[str, ...]  # event and effect cards
    ev_deck: np.ndarray  # [ev type] 0 event, 1 effect
    ev_effect: np.ndarray  # [ev type] index into EFFECTS
    ev_amount: np.ndarray
    ev_count: np.ndarray
    source: dict  # the TOML data as read (for the job spec: content, not path)


def _default_data() -> dict:
    data = {}
    for name in FILES:
        data |= tomllib.loads(resources.files("analyzer.regatta").joinpath("data", name).read_text(encoding="utf-8"))
    return data


def load(path: str | Path | None = None) -> Rules:
    """The default rules, with the sections of the TOML file `path` (if given) replacing theirs."""
    data, where = _default_data(), "analyzer/regatta/data"
    if path is not None:
        where = str(path)
        try:
            extra = tomllib.loads(read_data_file(path).decode("utf-8-sig"))  # bounded: never /dev/zero without end
        except OSError as exc:
            raise UserError(f"--rules {path}: cannot read it ({exc.strerror or exc})") from None
        except UnicodeDecodeError as exc:
            raise UserError(f"--rules {path}: not UTF-8 text (bad byte at offset {exc.start})") from None
        except tomllib.TOMLDecodeError as exc:
            raise UserError(f"--rules {path}: not TOML ({exc})") from None
        unknown = sorted(set(extra) - {"grid", "hand", "limits", "tile", "action", "event", "effect"})
        if unknown:
            raise UserError(f"{path}: unknown section {unknown[0]!r} (expected grid, hand, limits, tile, action, "
                            f"event, effect)")
        for key, value in extra.items():
            data[key] = {**data[key], **value} if isinstance(value, dict) else value
    return from_data(data, where)


def _whole(where, entry, data, key, low, high, default=None):
    value = data.get(key, default)
    if value is None:
        raise UserError(f"{where}: {entry}: missing {key!r}")
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise UserError(f"{where}: {entry}: {key} = {value!r} must be a whole number from {low} to {high}")
    return value


def _choice(where, entry, data, key, options, default=None):
    value = data.get(key, default)
    if value not in options:
        raise UserError(f"{where}: {entry}: {key} = {value!r} must be one of {', '.join(options)}")
    return value


def from_data(data: dict, where: str) -> Rules:
    grid, hand, limits = data.get("grid", {}), data.get("hand", {}), data.get("limits", {})
    rows = _whole(where, "[grid]", grid, "rows", 3, 12)
    cols = _whole(where, "[grid]", grid, "cols", 1, 8)
    kind, opening, mark, sea = [], [], [], []
    piles = {p: [] for p in ("river", "goal", "start")}
    for i, t in enumerate(data.get("tile", [])):
        entry = f"tile {i + 1}"
        pile = _choice(where, entry, t, "pile", ("river", "goal", "start"))
        text = t.get("open")
        if text == "rock":
            if pile != "river":
                raise UserError(f"{where}: {entry}: a rock comes from the river pile, not {pile!r}")
            mask = 0
        elif not isinstance(text, str) or not text or any(c not in SIDES for c in text) or len(set(text)) < len(text):
            raise UserError(f"{where}: {entry}: open = {text!r} must be 'rock' or sides from N, E, S, W (e.g. 'NS')")
        else:
            mask = sum(1 << SIDES.index(c) for c in text)
        if pile == "start" and not mask & 4:
            raise UserError(f"{where}: {entry}: a start tile must open S (its boat waits south of it)")
        m = _choice(where, entry, t, "mark", MARKS, "none")
        s = t.get("sea", False)
        if not isinstance(s, bool) or (s and pile != "goal"):
            raise UserError(f"{where}: {entry}: sea = {s!r} must be true or false, and true only on a goal tile")
        for _ in range(_whole(where, entry, t, "count", 0, 100)):
            piles[pile].append((PILES.index("rock") if text == "rock" else PILES.index(pile), mask, MARKS.index(m), s))
    need = {"river": (rows - 2) * cols, "goal": cols, "start": cols}
    for pile, tiles in piles.items():
        if len(tiles) != need[pile]:
            raise UserError(f"{where}: tile: {len(tiles)} {pile} tiles for a {rows}x{cols} grid that needs "
                            f"{need[pile]}")
        for k, o, m, s in tiles:
            kind.append(k), opening.append(o), mark.append(m), sea.append(int(s))
    if not any(sea):
        raise UserError(f"{where}: tile: no goal tile has sea = true, so no race can be won")
    names, actions, counts = [], [], []
    for i, c in enumerate(data.get("action", [])):
        entry = f"action {i + 1} ({c.get('name', '?')})"
        acts = c.get("actions")
        if not isinstance(acts, list) or not 1 <= len(acts) <= 2 or any(a not in CARD_ACTIONS for a in acts):
            raise UserError(f"{where}: {entry}: actions = {acts!r} must list one or two of {', '.join(CARD_ACTIONS)}")
        if "negate" in acts and len(acts) > 1:
            raise UserError(f"{where}: {entry}: negate is a card of its own (it answers, never acts)")
        names.append(str(c.get("name", f"card {i + 1}")))
        actions.append([CARD_ACTIONS[a] for a in acts] + [-1] * (2 - len(acts)))
        counts.append(_whole(where, entry, c, "count", 0, 200))
    if not names or sum(counts) < 1:
        raise UserError(f"{where}: action: the action deck is empty")
    ev_names, ev_deck, ev_effect, ev_amount, ev_count = [], [], [], [], []
    for deck_id, deck in enumerate(("event", "effect")):
        for i, c in enumerate(data.get(deck, [])):
            entry = f"{deck} {i + 1} ({c.get('name', '?')})"
            ev_names.append(str(c.get("name", f"{deck} {i + 1}")))
            ev_deck.append(deck_id)
            ev_effect.append(EFFECTS.index(_choice(where, entry, c, "effect", EFFECTS)))
            ev_amount.append(_whole(where, entry, c, "amount", 1, 5, 1))
            ev_count.append(_whole(where, entry, c, "count", 0, 200))
    return Rules(rows=rows, cols=cols, deal=_whole(where, "[hand]", hand, "deal", 0, 10),
                 limit=_whole(where, "[hand]", hand, "limit", 1, 10),
                 team_limit=_whole(where, "[hand]", hand, "team_limit", 1, 10),
                 draw_to=_whole(where, "[hand]", hand, "draw_to", 0, 10),
                 plays=_whole(where, "[hand]", hand, "plays", 0, 10),
                 turn_cap=_whole(where, "[limits]", limits, "turn_cap", 1, 100_000),
                 tile_kind=np.array(kind, np.int64), tile_open=np.array(opening, np.int64),
                 tile_mark=np.array(mark, np.int64), tile_sea=np.array(sea, np.int64),
                 card_names=tuple(names), card_actions=np.array(actions, np.int64),
                 card_count=np.array(counts, np.int64), ev_names=tuple(ev_names),
                 ev_deck=np.array(ev_deck, np.int64).reshape(-1), ev_effect=np.array(ev_effect, np.int64).reshape(-1),
                 ev_amount=np.array(ev_amount, np.int64).reshape(-1), ev_count=np.array(ev_count, np.int64).reshape(-1),
                 source=data)
