"""A person playing in the terminal: the board as text, numbered choices.

Everything shown comes from the role's observation, so the terminal shows a
person exactly what an agent in their seat would see.
"""
from __future__ import annotations

from typing import Callable

from .agents import Agent, PlayerView

HELP = """\
  a number   choose that option
  b          show the board again
  s FILE     save the game to FILE (resume it with --resume FILE)
  q          leave the game (Ctrl-C and Ctrl-D leave too)
  ?          this help"""


class Quit(Exception):
    """The person left the game."""


def render_board(observation: dict, titles: dict[str, str], role: str | None) -> str:
    """The zones and variables a role sees, one line each. `titles` names the
    zones to show and their titles (every zone, by its name, if empty)."""
    lines = [f"== Round {observation['round']} · {observation['step']} =="]
    rows = []
    for name, cards in observation["zones"].items():
        base, _, owner = name.partition(" of ")
        if titles and base not in titles:
            continue
        title = titles.get(base, base.replace("_", " "))
        if owner:
            title += f" ({owner})"
        shown = [c["card"] for c in cards if c is not None]
        hidden = len(cards) - len(shown)
        if not cards:
            text = "empty"
        elif not shown:
            text = f"{hidden} card{'s' if hidden != 1 else ''}, face down"
        else:
            text = " · ".join(shown) + (f"  (+{hidden} face down)" if hidden else "")
        rows.append((title, text))
    width = max(len(t) for t, _ in rows) if rows else 0
    lines += [f"  {t:<{width}}  {x}" for t, x in rows]
    if observation["vars"]:
        lines.append("  " + "   ".join(f"{k.replace('_', ' ')}: {v}" for k, v in observation["vars"].items()))
    return "\n".join(lines)


class HumanAgent(Agent):
    name = "human"

    def __init__(self, titles: dict[str, str], ask: Callable[[str], str] = input,
                 say: Callable[[str], None] = print, save: Callable[[str], str] | None = None):
        self.titles, self.ask, self.say, self.save = titles, ask, say, save
        self.last_step = None

    def choose(self, view: PlayerView) -> int:
        obs = view.observation
        where = (obs["round"], obs["step"])
        if where != self.last_step:
            self.say("\n" + render_board(obs, self.titles, view.role))
            self.last_step = where
        self.prompt(view)
        while True:
            try:
                line = self.ask("> ").strip()
            except (EOFError, KeyboardInterrupt):
                raise Quit() from None
            if line.isdigit() and 1 <= int(line) <= view.count:
                return int(line) - 1
            if line in ("?", "h", "help"):
                self.say(HELP)
            elif line in ("b", "board"):
                self.say(render_board(obs, self.titles, view.role))
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
                self.say(f"  please type a number from 1 to {view.count} (or ? for help)")

    def prompt(self, view: PlayerView) -> None:
        self.say(f"{view.role}, choose ({view.label.replace('_', ' ')}):")
        for i, text in enumerate(view.options, 1):
            self.say(f"  {i}) {text}")
