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
from analyzer.rules_file import RuleOption, choose_options, known_keys, rule_options

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
    options: dict[str, RuleOption]  # the switches where the seed can be read more ways ([options])
    chosen: dict[str, bool]  # their values in force
    source: dict  # the TOML data as read (for the job spec: content, not path)

    def option(self, name: str) -> bool:
        return self.chosen[name]


KEYS = {"grid": ("rows", "cols"), "hand": ("deal", "limit", "team_limit", "draw_to", "plays"),
        "limits": ("turn_cap",), "tile": ("pile", "open", "count", "mark", "sea"),
        "action": ("name", "actions", "count"), "event": ("name", "effect", "amount", "count"),
        "effect": ("name", "effect", "amount", "count")}  # (options: the packaged [options.NAME] tables)
TABLES, LISTS = ("grid", "hand", "limits", "options"), ("tile", "action", "event", "effect")
OPTION_KEYS = ("default", "true", "false")


def _default_data() -> dict:
    data = {}
    for name in FILES:
        data |= tomllib.loads(resources.files("analyzer.regatta").joinpath("data", name).read_text(encoding="utf-8"))
    return data


def packaged_bytes() -> bytes:
    """The packaged data files' bytes one after the other, in FILES order: what summaries hash as the packaged
    rules (`cat rules.toml tiles.toml cards.toml | sha256sum` in analyzer/regatta/data)."""
    return b"".join(resources.files("analyzer.regatta").joinpath("data", name).read_bytes() for name in FILES)


def _shape(where: str, data: dict, options: dict) -> None:
    """Every section of the right type (a table, or a list of tables) holding only known keys."""
    known_keys(where, data, (*TABLES, *LISTS), "the top level")
    for name in TABLES:
        if name in data and not isinstance(data[name], dict):
            raise UserError(f"{where}: [{name}] must be a table (e.g. [{name}] on its own line, then key = value), "
                            f"got {type(data[name]).__name__} {data[name]!r:.40}")
    for name in LISTS:
        if name in data and (not isinstance(data[name], list) or not all(isinstance(e, dict) for e in data[name])):
            raise UserError(f"{where}: {name} must be a list of tables ([[{name}]] entries or {name} = [{{...}}]), "
                            f"got {data[name]!r:.40}")
    for name in ("grid", "hand", "limits"):
        known_keys(where, data.get(name, {}), KEYS[name], f"[{name}]")
    for name in LISTS:
        for i, entry in enumerate(data.get(name, [])):
            known_keys(where, entry, KEYS[name], f"[[{name}]] {i + 1}")
    known_keys(where, data.get("options", {}), options, "[options]")
    for key, value in data.get("options", {}).items():
        if not isinstance(value, dict):
            raise UserError(f"{where}: [options.{key}] must be a table (default = true|false), got {value!r:.40}")
        known_keys(where, value, OPTION_KEYS, f"[options.{key}]")


def load(path: str | Path | None = None, flag: str = "--rules", rule=None) -> Rules:
    """The default rules, with the sections of the TOML file `path` (if given) replacing theirs (a table's
    keys one by one: [hand] deal = 4 leaves the other hand numbers; a list whole); `rule`: --rule NAME=VALUE
    texts (or {name: bool}) setting [options]. `flag` names the file in every error (--rules, --variant)."""
    data, where = _default_data(), "analyzer/regatta/data"
    if path is not None:
        if not isinstance(path, (str, Path)):
            raise UserError(f"{flag}: expected a path to a TOML file, got {type(path).__name__} {path!r:.40}")
        where = f"{flag} {path}"
        try:
            extra = tomllib.loads(read_data_file(path).decode("utf-8-sig"))  # bounded: never /dev/zero without end
        except OSError as exc:
            raise UserError(f"{where}: cannot read it ({exc.strerror or exc})") from None
        except UnicodeDecodeError as exc:
            raise UserError(f"{where}: not UTF-8 text (bad byte at offset {exc.start})") from None
        except tomllib.TOMLDecodeError as exc:
            raise UserError(f"{where}: not TOML ({exc})") from None
        _shape(where, extra, data["options"])
        for key, value in extra.items():
            if key == "options":
                data[key] = {**data[key], **{k: {**data[key][k], **v} for k, v in value.items()}}
            else:
                data[key] = {**data[key], **value} if isinstance(value, dict) else value
    if rule:
        chosen = choose_options(rule_options(where, data["options"]), rule)
        data = {**data, "options": {k: {**v, "default": chosen[k]} for k, v in data["options"].items()}}
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


def _max_actions(rows: int, cols: int, card_actions: list) -> int:
    """The most legal actions a turn can offer on the grid with these card types all in hand."""
    cells, river = rows * cols, (rows - 2) * cols
    targets = {CARD_ACTIONS["swap_adjacent"]: rows * (cols - 1) + cols * (rows - 1),
               CARD_ACTIONS["swap_any"]: river * (river - 1) // 2 + cols * (cols - 1) // 2,
               CARD_ACTIONS["advance_one"]: 4, CARD_ACTIONS["advance_two"]: 12,
               CARD_ACTIONS["rotate"]: 2 * (cells - cols), CARD_ACTIONS["negate"]: 0}
    per_card = sum(targets[a] for acts in card_actions for a in acts if a >= 0)
    return 1 + 4 + 2 * len(card_actions) + per_card  # end, reveals, discard and trade per type, card targets


def _playable(where: str, rows: int, cols: int, tiles: dict, card_actions: list, counts: list, ev_count: dict,
              hand: dict) -> None:
    """What a race needs to be playable at all, one line each: a way across the river, a goal tile to enter the
    sea tile from, a card that moves a boat, a deck for every marked tile, a hand that ends a turn."""
    from kernels.regatta.engine import MAX_ACTIONS

    ways = [o for k, o, _m, _s in tiles["river"] if k != PILES.index("rock") and bin(o).count("1") >= 2]
    if len(ways) < rows - 2:
        raise UserError(f"{where}: tile: {len(ways)} river tiles with two or more openings for {rows - 2} river "
                        f"rows: no boat can cross the river")
    if not any(bin(o).count("1") >= 2 for _k, o, _m, _s in tiles["start"]):
        raise UserError(f"{where}: tile: every start tile opens only S: no boat can leave the start row")
    sea = [o for _k, o, _m, s in tiles["goal"] if s]
    if not any(o & 14 for o in sea):
        raise UserError(f"{where}: tile: the sea tile opens to none of S, E, W: no boat can enter it (goal tiles "
                        f"never turn)")
    if not any(o & 4 for _k, o, _m, _s in tiles["goal"]):
        raise UserError(f"{where}: tile: no goal tile opens S: no boat can enter the goal row")
    moves = {CARD_ACTIONS["advance_one"], CARD_ACTIONS["advance_two"]}
    if not any(n and moves & set(acts) for acts, n in zip(card_actions, counts)):
        raise UserError(f"{where}: action: no card advances a boat (advance_one, advance_two), so no race can end")
    for pile in tiles.values():
        for _k, _o, m, _s in pile:
            if m and not ev_count[MARKS[m]]:
                raise UserError(f"{where}: tile: a tile has mark = {MARKS[m]!r} but the {MARKS[m]} deck has no "
                                f"cards")
    if hand["draw_to"] > hand["limit"]:
        raise UserError(f"{where}: [hand]: draw_to = {hand['draw_to']} is more than limit = {hand['limit']}: the "
                        f"draw at the end of a turn would break the hand limit")
    most = _max_actions(rows, cols, card_actions)
    if most > MAX_ACTIONS:
        raise UserError(f"{where}: a {rows}x{cols} grid with these action cards can offer {most:,} actions in one "
                        f"turn; the engine holds {MAX_ACTIONS:,} (fewer swap cards or a smaller grid)")


def _options(where: str, table) -> tuple[dict, dict]:
    for key, value in table.items():
        if isinstance(value, dict) and not isinstance(value.get("default"), bool):
            raise UserError(f"{where}: options.{key}.default = {value.get('default')!r} must be true or false")
    options = rule_options(where, table)
    return options, {name: o.default for name, o in options.items()}


def from_data(data: dict, where: str) -> Rules:
    """The Rules of TOML data (the packaged files merged with a user's), every key and value checked."""
    if not isinstance(data, dict):
        raise UserError(f"{where}: rules data must be a mapping of sections, got {type(data).__name__}")
    options, chosen = _options(where, data.get("options", {}))
    _shape(where, data, options)
    grid, hand_data, limits = data.get("grid", {}), data.get("hand", {}), data.get("limits", {})
    rows = _whole(where, "[grid]", grid, "rows", 3, 12)
    cols = _whole(where, "[grid]", grid, "cols", 1, 8)
    hand = {key: _whole(where, "[hand]", hand_data, key, low, 10)
            for key, low in (("deal", 0), ("limit", 1), ("team_limit", 1), ("draw_to", 1), ("plays", 1))}
    turn_cap = _whole(where, "[limits]", limits, "turn_cap", 1, 100_000)
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
        entry = f"action {i + 1} ({_name(where, f'action {i + 1}', c)})"
        acts = c.get("actions")
        if not isinstance(acts, list) or not 1 <= len(acts) <= 2 or any(a not in CARD_ACTIONS for a in acts):
            raise UserError(f"{where}: {entry}: actions = {acts!r} must list one or two of {', '.join(CARD_ACTIONS)}")
        if "negate" in acts and len(acts) > 1:
            raise UserError(f"{where}: {entry}: negate is a card of its own (it answers, never acts)")
        names.append(_name(where, entry, c))
        actions.append([CARD_ACTIONS[a] for a in acts] + [-1] * (2 - len(acts)))
        counts.append(_whole(where, entry, c, "count", 0, 200))
    if not names or sum(counts) < 1:
        raise UserError(f"{where}: action: the action deck is empty")
    ev_names, ev_deck, ev_effect, ev_amount, ev_count = [], [], [], [], []
    for deck_id, deck in enumerate(("event", "effect")):
        for i, c in enumerate(data.get(deck, [])):
            entry = f"{deck} {i + 1} ({_name(where, f'{deck} {i + 1}', c)})"
            ev_names.append(_name(where, entry, c))
            ev_deck.append(deck_id)
            ev_effect.append(EFFECTS.index(_choice(where, entry, c, "effect", EFFECTS)))
            ev_amount.append(_whole(where, entry, c, "amount", 1, 5, 1))
            ev_count.append(_whole(where, entry, c, "count", 0, 200))
    decks = {d: sum(n for k, n in zip(ev_deck, ev_count) if k == i) for i, d in enumerate(("event", "effect"))}
    _playable(where, rows, cols, piles, actions, counts, decks, hand)
    return Rules(rows=rows, cols=cols, **hand, turn_cap=turn_cap,
                 tile_kind=np.array(kind, np.int64), tile_open=np.array(opening, np.int64),
                 tile_mark=np.array(mark, np.int64), tile_sea=np.array(sea, np.int64),
                 card_names=tuple(names), card_actions=np.array(actions, np.int64),
                 card_count=np.array(counts, np.int64), ev_names=tuple(ev_names),
                 ev_deck=np.array(ev_deck, np.int64).reshape(-1), ev_effect=np.array(ev_effect, np.int64).reshape(-1),
                 ev_amount=np.array(ev_amount, np.int64).reshape(-1), ev_count=np.array(ev_count, np.int64).reshape(-1),
                 options=options, chosen=chosen, source=data)


def _name(where: str, entry: str, card: dict) -> str:
    name = card.get("name", entry)
    if not isinstance(name, str):
        raise UserError(f"{where}: {entry}: name = {name!r:.40} must be text")
    return name


def assumptions(r: Rules) -> list[str]:
    """What every report lists: the rules in force where the seed is silent or open, from `r` itself (a --rules
    file or a --rule switch changes them)."""
    cells = r.rows * r.cols
    rocks = int((r.tile_kind == PILES.index("rock")).sum())
    marks = {m: int((r.tile_mark == MARKS.index(m)).sum()) for m in MARKS}
    draws = (f"every revealed tile draws a card ({marks['event']} tiles name the event deck, {marks['effect']} the "
             f"effect deck)" if not marks["none"] else
             f"{marks['event'] + marks['effect']} of the {cells} tiles draw a card when revealed ({marks['event']} "
             f"event, {marks['effect']} effect), {marks['none']} draw none")
    deck = ", ".join(f"{n} {name}" for name, n in zip(r.card_names, r.card_count.tolist()) if n)
    events = [int(r.ev_count[r.ev_deck == d].sum()) for d in (0, 1)]
    return [f"grid {r.rows}x{r.cols}: the goal row, {r.rows - 2} river rows, the start row (the rulebook's scheme "
            f"is lost)",
            f"tiles: {(r.rows - 2) * r.cols} river tiles ({rocks} rocks), {r.cols} goal tiles ({int(r.tile_sea.sum())} "
            f"with the sea exit), {r.cols} start tiles; {draws}",
            f"action deck of {int(r.card_count.sum())} cards: {deck}; event deck {events[0]} cards, effect deck "
            f"{events[1]}; the event and effect decks reshuffle their discards when a card is needed",
            f"hands: deal {r.deal}, hand limit {r.limit} (team variant {r.team_limit}), draw up to {r.draw_to} at "
            f"the end of a turn, {r.plays} card uses a turn",
            *(r.options[name].text[value] for name, value in r.chosen.items()),
            "a negate answers the action card just played (a response window after every card)",
            "the navigation card has no rule effect; seat 1 starts",
            f"a race still running after {r.turn_cap} turns ends without winner (flagged capped)"]
