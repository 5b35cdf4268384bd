"""A rule coverage (coverage.py) as a designer reads it: text, HTML, or JSON.

What never ran comes first, located, each as one line a checked-in report
can give a reason (`key`); then how the games ended, the rulings whose steps
never ran, and every counted place with its runs and the games that ran it.
"""
from __future__ import annotations

import html

from .coverage import Coverage, Site, located

ENDED = {"win": "win", "lose": "lose", "end": "end game", "draw": "end game in a draw"}


def key(kind: str, inside: str, what: str) -> str:
    """An unreached place, named so that moving lines in the file leaves the name alone."""
    return f"{kind} in {inside}: {what}"


def never_ran(cov: Coverage) -> list[tuple[str, str]]:
    """(key, where) of what never ran: counted places, ranking keys that decided no game, rulings
    whose steps never ran."""
    out = [(key(s.kind, s.inside, s.what), s.at()) for s in cov.unreached()]
    mode = cov.ruleset.modes[cov.mode]
    if len(mode.ranking) > 1:  # a single key always decides: nothing to say of it
        for k in mode.ranking:
            if not cov.decided.get(k.name):
                out.append((key("outcome", "the ranking", f"`{k.name}` deciding who won"), _at(k.span)))
    for ruling, steps in cov.rulings():
        if not any(n for _, n in steps):
            out.append((key("ruling", "the rulings", f"`{ruling.id}` ({', '.join(s for s, _ in steps)})"),
                        _at(ruling.span)))
    return out


def _at(span) -> str:
    return located(span)


def _header(cov: Coverage) -> str:
    agents = ", ".join(f"{r}={k}" for r, k in cov.agents.items())
    params = ", ".join(f"{k}={v}" for k, v in sorted(cov.ruleset.param_values.items()))
    seeds = f"seeds {cov.seed}..{cov.seed + cov.games + len(cov.errors) - 1}"
    return (f"Rule coverage of {cov.ruleset.title} ({cov.ruleset.name}), mode {cov.mode}: {cov.games} games, "
            f"{seeds}, agents: {agents}" + (f"; parameters: {params}" if params else ""))


def text(cov: Coverage, all_places: bool = True) -> str:
    missing = never_ran(cov)
    ran = len(cov.sites) - len(cov.unreached())
    lines = [_header(cov), f"{len(cov.sites)} places counted: {ran} ran, {len(cov.sites) - ran} never ran."]
    if cov.errors:
        lines.append(f"{len(cov.errors)} games stopped by an agent's failure (not counted).")
    lines += ["", "Never ran:" if missing else "Everything counted ran at least once."]
    lines += [f"  {where}  {what}" for what, where in missing]
    lines += ["", "Endings:"]
    for (how, reason), n in sorted(cov.endings.items(), key=lambda kv: -kv[1]):
        lines.append(f"  {ENDED.get(how, how)}{f' as {reason}' if reason else ''}: {n} games")
    mode = cov.ruleset.modes[cov.mode]
    if mode.ranking:
        decided = ", ".join(f"{k.name} {cov.decided.get(k.name, 0)}" for k in mode.ranking)
        lines.append(f"  decided by the ranking's keys: {decided}")
    rulings = cov.rulings()
    if rulings:
        lines += ["", "Rulings, by the runs of their steps:"]
        lines += [f"  {r.id}: " + ", ".join(f"{s} {n}" for s, n in steps) for r, steps in rulings]
    if all_places:
        lines += ["", "Every place counted (runs, games that ran it):"]
        width = max((len(_line(s)) for s in cov.sites), default=0)
        lines += [f"  {_line(s):<{width}}  {cov.runs[s.index]:>9,}  {cov.reached[s.index]:>5}" for s in cov.sites]
    return "\n".join(lines) + "\n"


def _line(s: Site) -> str:
    where = s.at().rsplit("/", 1)[-1]
    return f"{where:<28} {s.kind:<9} {s.what}"


def as_json(cov: Coverage) -> dict:
    return {
        "ruleset": cov.ruleset.name, "mode": cov.mode, "games": cov.games, "seed": cov.seed, "agents": cov.agents,
        "params": dict(cov.ruleset.param_values),
        "places": [{"kind": s.kind, "what": s.what, "inside": s.inside, "at": s.at(), "runs": cov.runs[s.index],
                    "games": cov.reached[s.index]} for s in cov.sites],
        "never_ran": [{"what": what, "at": where} for what, where in never_ran(cov)],
        "endings": [{"ended_by": how, "reason": reason, "games": n} for (how, reason), n in cov.endings.items()],
        "decided_by": {k.name: cov.decided.get(k.name, 0) for k in cov.ruleset.modes[cov.mode].ranking},
        "errors": [{"seed": s, "error": e} for s, e in cov.errors],
    }


def page(cov: Coverage) -> str:
    """A standalone HTML page: what never ran, then every place, the unreached marked."""
    e = html.escape
    missing = never_ran(cov)
    rows = "\n".join(
        f"<tr class=\"{'never' if not cov.runs[s.index] else 'ran'}\"><td>{e(s.at())}</td><td>{e(s.kind)}</td>"
        f"<td>{e(s.inside)}</td><td><code>{e(s.what)}</code></td><td class=\"n\">{cov.runs[s.index]:,}</td>"
        f"<td class=\"n\">{cov.reached[s.index]}</td></tr>" for s in cov.sites)
    never = "\n".join(f"<li><span class=\"at\">{e(where)}</span> {e(what)}</li>" for what, where in missing) \
        or "<li>Everything counted ran at least once.</li>"
    endings = "\n".join(f"<li>{e(ENDED.get(how, how))}{e(f' as {reason}') if reason else ''}: {n} games</li>"
                        for (how, reason), n in sorted(cov.endings.items(), key=lambda kv: -kv[1]))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Rule coverage: {e(cov.ruleset.title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; font-size: 0.9em; }}
td, th {{ padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }}
td.n {{ text-align: right; font-variant-numeric: tabular-nums; }}
tr.never {{ background: #fde2e1; }}
.at {{ color: #666; font-family: monospace; }}
</style></head><body>
<h1>Rule coverage: {e(cov.ruleset.title)}</h1>
<p>{e(_header(cov))}</p>
<p>{len(cov.sites)} places counted; {len(cov.unreached())} never ran.</p>
<h2>Never ran</h2>
<ul>
{never}
</ul>
<h2>Endings</h2>
<ul>
{endings}
</ul>
<h2>Every place counted</h2>
<table><thead><tr><th>where</th><th>kind</th><th>in</th><th>what</th><th>runs</th><th>games</th></tr></thead>
<tbody>
{rows}
</tbody></table>
</body></html>
"""
