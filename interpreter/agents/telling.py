"""What a person playing is told between their choices, and at the end: what
the others did, what chance and the rules showed or said, who left the game and
why, which cards moved or came into sight, and how the game ended — all read
from the role's observations, so a person is told what an agent in their seat
would see."""
from __future__ import annotations


def who_is(player: str, you: str | None) -> str:
    return "you" if player == you else player.replace("_", " ")


def _card_text(card: dict) -> str:
    return card["card"] + (f" ({card['state']})" if card.get("state") else "")


def title_of(name: str, titles: dict[str, str], you: str | None = None) -> str:
    """A zone's title as shown to `you`: `hand of bob` -> `Hand (bob)`, or `Hand (you)` to bob."""
    base, _, owner = name.partition(" of ")
    return titles.get(base, base.replace("_", " ")) + (f" ({who_is(owner, you)})" if owner else "")


def owned(name: str, you: str | None) -> str:
    """A zone as a sentence names it to `you`: `bid of player_2` -> `player 2's bid`, or
    `your bid` to player_2 (a board's space after it kept: `track of red 3,4`)."""
    base, _, owner = name.partition(" of ")
    if not owner:
        return name.replace("_", " ")
    owner, _, space = owner.partition(" ")
    whose = "your" if owner == you else who_is(owner, you) + "'s"
    return f"{whose} {base.replace('_', ' ')}" + (f" {space}" if space else "")


def _places(observation: dict, titles: dict[str, str], you: str | None) -> dict[int, tuple[str, str, str]]:
    """Every card the observation shows: id -> (label, where, state)."""
    places = {}
    for name, cards in observation["zones"].items():
        where = title_of(name, titles, you)
        for card in cards:
            if card is not None:
                places[card["id"]] = (card["card"], where, card.get("state", ""))
    for name, board in observation.get("boards", {}).items():
        title = title_of(name, titles, you)
        spaces = board.items() if isinstance(board, dict) else \
            ((f"{x},{y}", space) for y, row in enumerate(board, 1) for x, space in enumerate(row, 1))
        for where, space in spaces:
            for card in space or ():
                if card is not None:
                    places[card["id"]] = (card["card"], f"{title} {where.replace('_', ' ')}", card.get("state", ""))
    return places


def render_changes(before: dict, after: dict, titles: dict[str, str], you: str | None,
                   heading: str = "Since your last choice:") -> str:
    """What moved or changed between two observations of the same role (`you`), card by card:
    a card seen in both where it went, one that came into sight where it now is (a card
    drawn), one seen before and not now where it was."""
    old, new = _places(before, titles, you), _places(after, titles, you)
    lines = []
    for card, (label, where, state) in new.items():
        if card not in old:
            lines.append((label, f"now in {where}"))
            continue
        _, was, was_state = old[card]
        parts = [f"{was} → {where}"] if was != where else []
        if state != was_state:
            parts.append(state or was_state + " gone")
        if parts:
            lines.append((label, "; ".join(parts)))
    lines += [(label, f"no longer seen (was in {was})") for card, (label, was, _) in old.items() if card not in new]
    if not lines:
        return ""
    width = max(len(label) for label, _ in lines)
    return "\n".join([f"  {heading}"] + [f"    {label:<{width}}  {text}" for label, text in lines])


def render_events(before: dict | None, after: dict, role: str | None) -> str:
    """Everything public since the role's last choice, in order: the others' choices, the
    rolls and picks, and who left the game and why (an observation without a history: its
    rolls and picks only)."""
    if "events" not in after:
        return render_chance(after)
    lines = ["    " + event_line(e, role) for e in after["events"]]
    was = set((before or {}).get("out", ()))
    for r in after.get("out", ()):
        if r not in was:
            why = after.get("out_reasons", {}).get(r, "out")
            lines.append(f"    {who_is(r, role)} {'are' if r == role else 'is'} out of the game ({why.replace('_', ' ')})")
    return "\n".join(["  Since your last choice:", *lines]) if lines else ""


def event_line(e: dict, role: str | None) -> str:
    """One event of an observation as `role` reads it: a choice, a roll, a pick, a reveal, an announcement."""
    if e["type"] == "decision":
        said = f" {e['label'].replace('_', ' ')}" if "label" in e else ""
        return f"{who_is(e['role'], role)} chose{said}" + (f": {e['option']}" if "option" in e else "")
    if e["type"] == "roll":
        return _rolled(e)
    if e["type"] == "pick":
        return f"picked at random: {e['picked']}"
    return _told(e, role)


def _told(e: dict, role: str | None) -> str:
    """A reveal or an announcement, as the reader was told of it."""
    to = "" if e.get("to") is None else f" to {who_is(e['to'], role)}"
    what = e.get("what") or ""
    what = f" {owned(what, role) if 'shown' in e or 'cards' in e else what}" if what else ""  # a zone, or the rules' words
    if e["type"] == "announce":
        return f"announced{to}: {e['text']}" if "text" in e else f"something was said{to}"
    if "text" in e or "shown" in e:
        return f"revealed{to}:{what}" + (": " if what else " ") + e.get("text", e.get("shown", ""))
    n = e.get("cards", 0)
    return f"revealed{to}:{what}" + (f" ({n} card{'s' if n != 1 else ''})" if n else "")


def _rolled(e: dict) -> str:
    if e.get("secret"):
        n = e.get("dice", 1)
        return f"rolled {n} {'die' if n == 1 else 'dice'} in secret ({e['die']})" + \
            (f", into {e['into']}" if e.get("into") else "")
    faces = [str(f) for f in e["faces"]]
    return f"rolled {', '.join(faces[:-1]) + ' and ' if len(faces) > 1 else ''}" \
           f"{faces[-1] if faces else 'no dice'} ({e['die']})"


def render_ending(outcome: dict, role: str | None) -> str:
    """How the game ended, as a person reads it: who won and why, then each player's result,
    place (with more than one player), score, and why they left the game if they did."""
    results, places, scores = outcome["results"], outcome.get("places", {}), outcome.get("scores", {})
    reason = outcome.get("reason")
    winners = [r for r, x in results.items() if x == "win"]
    if winners:
        verdict = " and ".join(who_is(r, role) for r in winners) + (" win" if len(winners) > 1 or role in winners
                                                                   else " wins")
    elif any(x == "draw" for x in results.values()):
        verdict = "a draw"
    else:
        verdict = "you lose" if role in results else "everyone loses"
    lines = [f"Game over: {verdict}" + (f" ({reason.replace('_', ' ')})." if reason else ".")]
    out = outcome.get("eliminated", {})
    said = {"win": "won", "lose": "lost", "draw": "drew"}
    for r in sorted(results, key=lambda r: (places.get(r, 0), list(results).index(r))):
        parts = [said.get(results[r], results[r])]
        if len(results) > 1 and r in places:
            parts.append(_ordinal(places[r]))
        if r in scores:
            parts.append(f"score {scores[r]}")
        if r in out:
            parts.append(f"out of the game ({out[r].replace('_', ' ')})")
        lines.append(f"  {who_is(r, role)}: " + ", ".join(parts))
    return "\n".join(lines)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')} place"


def render_chance(observation: dict) -> str:
    """The rolls and random picks since the role's last choice: "rolled 3 and 5 (d6)"."""
    lines = ["    " + event_line(e, None) for e in observation.get("chance", ())]
    return "\n".join(["  Chance since your last choice:", *lines]) if lines else ""
