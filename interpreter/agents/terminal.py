"""A person playing in the terminal: the board as text, numbered choices.

Everything shown comes from the role's observation, so the terminal shows a
person exactly what an agent in their seat would see.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rulelang.params import whole_number

from .base import Agent, PlayerView
from .telling import render_changes, render_events, title_of, who_is

HELP = """\
  a number   choose that option (options that are numbers are chosen by what they say)
  a word     choose the option that says it, begins with it, or has it as a word (`st` for `stand`, `2,2`)
  b          show the board again
  s FILE     save the game to FILE (resume it with --resume FILE)
  q          leave the game (Ctrl-C and Ctrl-D leave too)
  ?          this help"""


class Quit(Exception):
    """The person left the game."""


@dataclass(frozen=True)
class Drawing:
    """What the rules say of a board's spaces, for its picture: each space's
    marks in words (a grid's by (column, row), a graph's by place), where
    each place of a graph leads, and a grid's map as drawn (top line first)
    with what each of its characters marks."""
    marks: dict
    links: dict
    picture: tuple[str, ...] = ()
    legend: dict | None = None


def board_drawings(game) -> dict[str, Drawing]:
    """The boards of a game's ruleset, ready to draw."""
    drawings = {}
    for z in game.ruleset.zones.values():
        if not z.board:
            continue
        names = list(z.places) if z.kind == "graph" else \
            [(i % z.columns + 1, i // z.columns + 1) for i in range(z.spaces)]
        marks = {n: " ".join(str(v).replace("_", " ") for v in m.values()) for n, m in zip(names, z.space_marks)}
        links = {p: [z.places[b] for a, b in z.links if a == i] for i, p in enumerate(z.places)}
        legend = {}
        for i, line in enumerate(z.picture):  # a character's words, as the first space drawn with it has them
            for x, char in enumerate(line, 1):
                if char != " ":
                    legend.setdefault(char, marks.get((x, z.rows - i), ""))
        drawings[z.name] = Drawing(marks, links, z.picture, legend)
    return drawings


def render_grid(title: str, rows: list, drawing: Drawing | None = None) -> list[str]:
    """A board as a grid of boxes, top row first, numbered like `space(B, column, row)`;
    a space's marks first in its box, a gap of the map left blank. A board
    drawn as a map is drawn as its map instead (`render_map`)."""
    if drawing is not None and drawing.picture:
        return render_map(title, rows, drawing)
    marks = drawing.marks if drawing is not None else {}
    cells = [[([f"[{marks[x, y]}]"] if marks.get((x, y)) else []) + _space_lines(space) if space is not None else []
              for x, space in enumerate(row, 1)] for y, row in enumerate(rows, 1)]
    columns = len(rows[0]) if rows else 0
    width = max([12] + [len(line) for row in cells for cell in row for line in cell])
    margin = len(str(len(rows))) + 3
    rule = " " * margin + ("+" + "-" * (width + 2)) * columns + "+"
    lines = [f"  {title}", " " * margin + "".join(f" {x:^{width + 2}}" for x in range(1, columns + 1)), rule]
    for y in range(len(rows), 0, -1):
        row = cells[y - 1]
        for i in range(max(1, max(len(cell) for cell in row))):
            label = str(y) if i == 0 else ""
            texts = [cell[i] if i < len(cell) else "" for cell in row]
            lines.append(f"  {label:>{margin - 3}} " + "".join(f"| {t:<{width}} " for t in texts) + "|")
        lines.append(rule)
    return lines


def _markers(labels: list[str], taken: set[str]) -> dict[str, str]:
    """One character for each card label: the first letter of one of its words,
    else any of its letters, else a digit — never a character the map uses."""
    markers: dict[str, str] = {}
    for label in labels:
        words = label.split()
        for char in [w[0] for w in words] + list(label) + list("123456789"):
            char = char.lower()
            if char.isalnum() and char not in taken:
                markers[label] = char
                taken.add(char)
                break
        else:
            markers[label] = "*"
    return markers


def _legend(items: list[str], width: int = 100, indent: str = "    ") -> list[str]:
    """A map's key: items joined with " · " on indented lines."""
    lines, line = [], ""
    for item in items:
        if line and len(indent + line + " · " + item) > width:
            lines.append(indent + line)
            line = ""
        line = f"{line} · {item}" if line else item
    return lines + ([indent + line] if line else [])


def render_map(title: str, rows: list, drawing: Drawing) -> list[str]:
    """A board drawn as its map, a character a space, numbered like
    `space(B, column, row)`; after a space's character, a letter for each card
    on it (`?` a face-down one), and under the map what the characters and
    letters stand for."""
    picture, height = drawing.picture, len(rows)
    labels = sorted({c["card"] for row in rows for space in row if space for c in space if c is not None})
    marker = _markers(labels, {ch for line in picture for ch in line})
    cells: dict[tuple[int, int], str] = {}
    states: dict[str, list[str]] = {}
    crowded: list[str] = []
    for y, row in enumerate(rows, 1):
        for x, space in enumerate(row, 1):
            char = picture[height - y][x - 1] if x <= len(picture[height - y]) else " "
            if space is None:
                cells[x, y] = " "
                continue
            letters = "".join("?" if c is None else marker[c["card"]] for c in space)
            if len(letters) > _CROWD:  # a crowded space: its first letters, and all of them below the map
                crowded.append(f"{x},{y} holds {' '.join(letters)}")
                letters = letters[:_CROWD - 1] + "+"
            cells[x, y] = char + letters
            for c in space:
                if c is not None and c.get("state"):
                    states.setdefault(c["card"], []).append(f"{c['state']} at {x},{y}")
    columns = len(rows[0]) if rows else 0
    width = max([2] + [len(cell) for cell in cells.values()])
    margin = len(str(height)) + 3
    lines = [f"  {title}", " " * margin + "".join(f"{x:<{width}} " for x in range(1, columns + 1)).rstrip()]
    for y in range(height, 0, -1):
        lines.append(f"  {y:>{margin - 3}} " + "".join(f"{cells[x, y]:<{width}} " for x in range(1, columns + 1)).rstrip())
    legend = drawing.legend or {}
    lines += _legend([f"{char} {words}" for char, words in legend.items() if words])
    lines += _legend([f"{marker[label]} {label}" + (f" ({'; '.join(states[label])})" if label in states else "")
                       for label in labels] + (["? a face-down card"] if any(
                           c is None for row in rows for space in row if space for c in space) else []))
    return lines + _legend(crowded)


_CROWD = 3  # letters a space of a map shows; more cards, and it shows two and a +


def render_graph(title: str, places: dict, drawing: Drawing | None) -> list[str]:
    """A graph as its places, a line each: marks, cards (with their state; a
    card named as its place is not named twice), and where it leads."""
    lines = [f"  {title}"]
    width = max(len(p) for p in places)
    for place, cards in places.items():
        name = place.replace("_", " ")
        mark = f"[{drawing.marks[place]}] " if drawing is not None and drawing.marks.get(place) else ""
        texts = [_card_text(c) if c is not None else "(face down)" for c in cards]
        shown = " · ".join(t for t in texts if t != name) or "—"
        leads = ", ".join(q.replace("_", " ") for q in drawing.links[place]) if drawing is not None else ""
        lines.append(f"    {name:<{width}}  {mark}{shown}" + (f"   → {leads}" if leads else ""))
    return lines


def _space_lines(cards: list) -> list[str]:
    lines = []
    for card in cards:
        if card is None:
            lines.append("(face down)")
            continue
        lines.append(card["card"])
        if card.get("state"):
            lines.append("  " + card["state"])
    return lines


def _card_text(card: dict) -> str:
    return card["card"] + (f" ({card['state']})" if card.get("state") else "")


def _zone_text(cards: list) -> str:
    shown = [_card_text(c) for c in cards if c is not None]
    hidden = len(cards) - len(shown)
    if not cards:
        return "empty"
    if not shown:
        return f"{hidden} card{'s' if hidden != 1 else ''}, face down"
    return " · ".join(shown) + (f"  (+{hidden} face down)" if hidden else "")


def _value(v, players, you: str | None) -> str:
    """A variable's value as a person reads it: yes/no, none, a player as "you"."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "none"
    if v in players:
        return who_is(v, you)
    if isinstance(v, list):
        return ", ".join(_value(x, players, you) for x in v) or "none"
    return str(v).replace("_", " ")


def _wrapped(parts: list[str], width: int = 100) -> list[str]:
    """Parts joined on lines of at most about `width` characters."""
    lines, line = [], ""
    for part in parts:
        if line and len(line) + 3 + len(part) > width:
            lines.append(line)
            line = part
        else:
            line = f"{line}   {part}" if line else part
    return lines + ([line] if line else [])


def render_board(observation: dict, titles: dict[str, str], role: str | None,
                 drawings: dict[str, Drawing] | None = None) -> str:
    """The zones and variables a role sees; boards as grids or graphs.
    `titles` names the zones to show and their titles (every zone, if empty).
    Every player's own zone (`owner: each`) is one line, naming the players
    whose zone holds something; every player's own variables are a table, a
    row a player."""
    lines = [f"== Round {observation['round']} · {observation['step']} =="]
    rows, each = [], {}
    for name, cards in observation["zones"].items():
        base, _, owner = name.partition(" of ")
        if titles and base not in titles:
            continue  # a zone no card can reach in this mode
        if owner:
            if base not in each:
                each[base] = []
                rows.append((titles.get(base, base.replace("_", " ")), each[base]))
            if cards:
                each[base].append(f"{who_is(owner, role)}: {_zone_text(cards)}")
        else:
            rows.append((title_of(name, titles, role), _zone_text(cards)))
    rows = [(t, x if isinstance(x, str) else "   ".join(x) or "empty") for t, x in rows]
    width = max(len(t) for t, _ in rows) if rows else 0
    lines += [f"  {t:<{width}}  {x}" for t, x in rows]
    hidden = set(observation.get("statistics", ()))  # kept for measures, not rules: not shown
    variables = {k: v for k, v in observation["vars"].items() if k not in hidden}
    players = list(observation.get("players", ())) or \
        next((list(v) for v in variables.values() if isinstance(v, dict)), [])  # seat order
    players += [role] if role is not None and role not in players else []  # a role is "you" even without them
    shared = [f"{k.replace('_', ' ')}: {_value(v, players, role)}" for k, v in variables.items()
              if not isinstance(v, dict)]
    lines += ["  " + line for line in _wrapped(shared)]
    own = {k: v for k, v in variables.items() if isinstance(v, dict)}
    if own:  # a player's own: a table, a row a player
        table = [[""] + [k.replace("_", " ") for k in own]]
        table += [[who_is(r, role)] + [_value(v[r], players, role) if r in v else "hidden" for v in own.values()]
                  for r in players]
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
        lines += ["  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in table]
    if observation.get("out"):
        lines.append("  out of the game: " + ", ".join(who_is(r, role) for r in observation["out"]))
    for name, board in observation.get("boards", {}).items():
        drawing = (drawings or {}).get(name)
        lines += [""] + (render_graph(title_of(name, titles, role), board, drawing) if isinstance(board, dict)
                         else render_grid(title_of(name, titles, role), board, drawing))
    return "\n".join(lines)


class HumanAgent(Agent):
    name = "human"
    guarded = False  # no clock for a person; Quit and a save pass straight through

    def __init__(self, titles: dict[str, str], ask: Callable[[str], str] = input,
                 say: Callable[[str], None] = print, save: Callable[[str], str] | None = None):
        self.titles, self.ask, self.say, self.save = titles, ask, say, save
        self.last_board = None
        self.last_seen = None
        self.drawings: dict[str, Drawing] | None = None

    def choose(self, view: PlayerView) -> int:
        obs = view.observation
        self.show(obs, view.role, view.game)
        if view.count == 1:  # nothing to choose: said, not asked (the game still logs it as a decision)
            self.say(f"{view.role.replace('_', ' ')}, {view.label.replace('_', ' ')}: {view.options[0]} (the only option)")
            return 0
        self.prompt(view)
        while True:
            try:
                line = self.ask("> ").strip()
            except (EOFError, KeyboardInterrupt):
                raise Quit() from None
            command = line in ("?", "h", "help", "b", "board", "q", "quit", "exit") or line.split()[:1] in (["s"], ["save"])
            answer = None if command else answer_of(line, view.options)
            if isinstance(answer, int):
                return answer
            if line in ("?", "h", "help"):
                self.say(HELP)
            elif line in ("b", "board"):
                self.say(render_board(obs, self.titles, view.role, self.drawings))
                self.prompt(view)
            elif line.split()[:1] in (["s"], ["save"]):
                parts = line.split(maxsplit=1)
                if len(parts) < 2 or self.save is None:
                    self.say("  say where: s FILE")
                else:
                    self.say("  " + self.save(parts[1]))
            elif line in ("q", "quit", "exit"):
                raise Quit()
            elif line:
                self.say("  " + (answer or self.hint(view)))

    def show(self, obs: dict, role: str, game) -> None:
        """The board, whenever what the player sees has changed, with what happened since their
        last choice: the others' choices, chance, who left the game, the cards that moved."""
        if self.drawings is None:
            self.drawings = board_drawings(game)
        board = render_board(obs, self.titles, role, self.drawings)
        changes = render_changes(self.last_seen, obs, self.titles, role, "Cards since your last choice:") \
            if self.last_seen else ""
        if board != self.last_board:
            self.say("\n" + board)
            self.last_board = board
        events = render_events(self.last_seen, obs, role)
        for text in (events, changes):
            if text:
                self.say(text)
        self.last_seen = obs

    @staticmethod
    def hint(view: PlayerView) -> str:
        if by_value(view.options):
            return "please type one of: " + ", ".join(view.options) + " (or ? for help)"
        return f"please type a number from 1 to {view.count}, or what the option says (or ? for help)"

    def prompt(self, view: PlayerView) -> None:
        self.say(f"{view.role.replace('_', ' ')}, choose ({view.label.replace('_', ' ')}):")
        numbered = not by_value(view.options)
        for i, text in enumerate(view.options, 1):
            self.say(f"  {i}) {text}" if numbered else f"  - {text}")


def by_value(options: list[str]) -> bool:
    """Options chosen by what they say, not by a number: when one of them is a number, a
    number typed is that option (with a full column 4, `5` is column 5, not the fifth option)."""
    return any(whole_number(o, 9) is not None for o in options)


def answer_of(line: str, options: list[str]) -> int | str | None:
    """The option a typed line chooses (its index), or what to say if it chooses none."""
    if not line:
        return None
    if not by_value(options):
        number = whole_number(line, 9)  # `²` is a digit to str.isdigit, not a number
        if number is not None:
            return number - 1 if 1 <= number <= len(options) else None
    said = " ".join(line.replace("_", " ").lower().split())
    texts = [" ".join(o.replace("_", " ").lower().split()) for o in options]
    if said in texts:
        return texts.index(said)
    if whole_number(line, 9) is not None:
        return None
    begun = [i for i, t in enumerate(texts) if t.startswith(said)] if len(said) > 1 else []
    if not begun and len(said) > 1:  # or says it somewhere, word for word: "2,2" for "place a man at 2,2"
        begun = [i for i, t in enumerate(texts) if f" {said} " in f" {t} "]
    if len(begun) == 1:
        return begun[0]
    if len(begun) > 1:
        return "which one? " + ", ".join(options[i] for i in begun)
    return None
