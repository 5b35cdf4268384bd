"""Variants: a ruleset that `extends:` another and says only what differs.

    extends: twenty-trials            # a bundled name, or a path from this file's folder
                                      # (inside the folders files.Folders allows)
    game: twenty-trials-easy
    params:
      action_modifiers: {default: true}

The YAML trees are merged before anything is read, so the merged ruleset is
read and checked like any other, and every node keeps its own position: an
error in inherited text points into the base file, one in the variant into
the variant. The rules of merging:

* mappings merge key by key, recursively; any other value replaces the
  inherited one; new keys come after the inherited ones;
* a card type's `add:` and `remove:` tables add and remove cards (rows of
  its table: with `each:`, a row stands for a card of every combination);
* a mode's `round:` may be a list of changes to the inherited steps:
  `- replace: STEP`, `- insert: STEP` (with `before:` or `after:`),
  `- remove: STEP`;
* `rulings:` merge by `id` (the same id replaces), `- remove: ID` drops one;
* in any ruleset, a mode may `extends:` another mode of the same ruleset: it
  starts as a copy of that mode (as this file sees it) and changes it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .cardrows import format_table, split_table
from .errors import Diagnostic, Diagnostics, RulesetError, Source, Span, did_you_mean
from .files import Folders, Unreadable, decode, read_bytes, read_source
from .limits import DEFAULT, Limits
from .sections.modes import CHANGES
from .yamltree import YList, YMap, YNode, YScalar, load_yaml

STEP_CHANGES = {c.keys[0].name: tuple(k.name for k in c.keys[1:]) for c in CHANGES}  # op -> its other keys


@dataclass(frozen=True)
class Tree:
    """A ruleset's YAML with every `extends:` resolved, and the files it came
    from, the most basic first (the ruleset's hash covers all of them)."""
    root: YNode
    sources: tuple[Source, ...]
    # each `extends:` of the chain, the most basic last: (the file saying it, the name it gives, the file found)
    links: tuple[tuple[str, str, str], ...] = ()
    # each rules text's IR as parsed (sections/reader.py): a tree read again (`check` reads
    # one at several player counts) parses none of it again; the IR is immutable, so shared
    parsed: dict = field(default_factory=dict, compare=False, repr=False)


def read_tree(path: Path, limits: Limits = DEFAULT, extends_dirs=()) -> Tree:
    """The ruleset at `path` with its bases; `extends:` may read files in its
    folder and in `extends_dirs` (files.Folders)."""
    return resolve(_parse(read_source(path, limits), limits), path, (), limits, Folders.around(path, extends_dirs))


def _parse(source: Source, limits: Limits) -> YNode:
    return load_yaml(source.text, source.name, limits)


def _base(path: Path, ref: str, where: Span, limits: Limits) -> YNode:
    """The YAML of the base file `extends: REF` names. Until it is known to be
    a ruleset (YAML, a mapping with `game:`), an error about it is placed at
    the `extends:` and gives its path and the problem, never its lines: the
    file may be anything a variant names, such as a configuration with keys."""
    def refuse(problem: str, hint: str | None = f"check it on its own for the details: rulelang check {path}"):
        return RulesetError([Diagnostic(where, f"'{ref}' is not a ruleset rulelang can read: {problem}", hint)])
    try:
        data = read_bytes(path, limits.file_bytes, "a ruleset")
    except Unreadable as exc:
        raise refuse(str(exc), None) from None
    try:
        root = _parse(Source(str(path), decode(data, str(path))), limits)
    except RulesetError as exc:
        at = next((f"line {d.span.line}, column {d.span.col} of " for d in exc.diagnostics if d.span), "")
        raise refuse(f"{at}{path} is not a YAML ruleset") from None
    if not isinstance(root, YMap) or "game" not in root:
        raise refuse(f"{path} has no `game:` name")
    return root


def resolve(root: YNode, path: Path, chain: tuple[Path, ...], limits: Limits = DEFAULT,
            folders: Folders | None = None) -> Tree:
    """The tree of the file at `path` (its text already parsed) with its base merged in."""
    diag = Diagnostics()
    source = root.span.source
    sources: tuple[Source, ...]
    links: tuple[tuple[str, str, str], ...] = ()
    if not isinstance(root, YMap) or "extends" not in root:
        merged, sources = root, (source,)
    else:
        here = path.resolve()
        node = root.at("extends")
        ref = node.value if isinstance(node, YScalar) and isinstance(node.value, str) else None
        if not ref:
            raise RulesetError([Diagnostic(node.span, "`extends:` names the ruleset this one changes",
                                           "a bundled name like `twenty-trials`, or a path from this file's folder")])
        folders = folders or Folders.around(path)
        base_path = folders.find(ref, path, node.span)
        if base_path.resolve() in (*chain, here):
            names = [p.name for p in (*chain, here)] + [base_path.name]
            raise RulesetError([Diagnostic(node.span, "a cycle of `extends`: " + " -> ".join(names),
                                           "a ruleset cannot extend one that extends it")])
        base = resolve(_base(base_path, ref, node.span, limits), base_path, (*chain, here), limits, folders)
        merged = _Merger(diag).ruleset(base.root, root)
        sources = (*base.sources, source)
        links = ((str(path), ref, str(base_path)), *base.links)
    if isinstance(merged, YMap) and isinstance(modes := merged.get("modes"), YMap):
        merged = _with(merged, "modes", _Merger(diag).mode_extends(modes))
    diag.raise_if_any()
    return Tree(merged, sources, links)


def _with(node: YMap, key: str, value: YNode) -> YMap:
    entries = dict(node.entries)
    entries[key] = (entries[key][0] if key in entries else value.span, value)
    return YMap(node.span, entries)


def _without(node: YMap, *keys: str) -> YMap:
    return YMap(node.span, {k: v for k, v in node.entries.items() if k not in keys})


def _each_fields(node: YNode | None) -> list[str]:
    """The fields a card type's `each:` names (a list of them, one alone, or a mapping by them)."""
    if isinstance(node, YMap):
        return list(node.entries)
    if isinstance(node, YScalar) and isinstance(node.value, str) and node.value:
        return [node.value]
    return [n for n in map(_name, node.items) if n] if isinstance(node, YList) else []


def _name(node: YNode | None) -> str | None:
    return str(node.value) if isinstance(node, YScalar) and node.value is not None else None


class _Merger:
    def __init__(self, diag: Diagnostics):
        self.diag = diag

    # ------------------------------------------------------------ general
    def value(self, old: YNode | None, new: YNode) -> YNode:
        if isinstance(old, YMap) and isinstance(new, YMap):
            return self.maps(old, new)
        return new

    def maps(self, old: YMap, new: YMap, merge=None) -> YMap:
        """Key by key: `merge(key, old, new)` merges an inherited entry (default: `value`);
        a new key is added after the inherited ones."""
        merge = merge or (lambda key, o, n: self.value(o, n))
        entries = dict(old.entries)
        for key, (span, node) in new.entries.items():
            entries[key] = (entries[key][0], merge(key, entries[key][1], node)) if key in entries else (span, node)
        return YMap(new.span, entries)

    # ------------------------------------------------------------ the ruleset
    def ruleset(self, base: YNode, variant: YMap) -> YNode:
        if not isinstance(base, YMap):
            return variant
        game = variant.get("game")
        if game is None:
            self.diag.error(variant.span, "a variant needs its own `game:` name",
                            "e.g. `game: my-variant`; logs and saved games name the ruleset by it")
        elif _name(game) == _name(base.get("game")):
            self.diag.error(game.span, f"'{_name(game)}' is the name of the ruleset this one extends",
                            "give the variant its own `game:` name")
        special = {"cards": self.cards, "modes": self.modes, "rulings": self.rulings}
        return self.maps(base, _without(variant, "extends"),
                         lambda key, o, n: special[key](o, n) if key in special else self.value(o, n))

    # ------------------------------------------------------------ cards
    def cards(self, old: YNode, new: YNode) -> YNode:
        if not (isinstance(old, YMap) and isinstance(new, YMap)):
            return new
        for name, (span, spec) in new.entries.items():
            if name not in old and isinstance(spec, YMap):
                for key in ("add", "remove"):
                    if key in spec:
                        self.diag.error(spec.key_span(key), f"card type '{name}' is new here: it has no cards to {key}",
                                        did_you_mean(name, old.entries) or "give its cards with `table:`")
        return self.maps(old, new, lambda name, o, n: self.card_type(name, o, n))

    def card_type(self, name: str, old: YNode, new: YNode) -> YNode:
        if not (isinstance(old, YMap) and isinstance(new, YMap)):
            return new
        merged = self.maps(old, _without(new, "add", "remove"))
        if "add" not in new and "remove" not in new:
            return merged
        table, each = merged.get("table"), _each_fields(merged.get("each"))
        if not isinstance(table, YScalar) or not isinstance(table.value, str):
            where = new.key_span("add" if "add" in new else "remove")
            self.diag.error(where, f"card type '{name}' has no table of cards to change",
                            "its cards are every combination of `each:`: change `each:` or `count:`" if each else
                            "a card type without fields is changed with `count:`")
            return merged
        header, header_span, lines = split_table(table, self.diag)
        if header is None:
            return merged
        columns = [c for c in header if c != "count"]
        rows = [self.row(header, cells, span) for cells, span in lines]
        rows = [r for r in rows if r is not None]
        if "remove" in new:
            rows = self.remove_cards(name, columns, rows, new.at("remove"), each)
        if "add" in new:
            rows += self.add_cards(name, columns, new.at("add"), each)
        counted = any(count != 1 for _, count, _ in rows)
        text = format_table(columns + ["count"] * counted,
                            [[cells[c] for c in columns] + [str(count)] * counted for cells, count, _ in rows])
        spans = (header_span, *(span for _, _, span in rows))
        last = new.at("add") if "add" in new else new.at("remove")
        return _with(merged, "table", YScalar(last.span, text, "|", line_spans=spans))

    def row(self, header: list[str], cells: list[str], span: Span):
        """(cells by column, copies, span), or None (reported) for a malformed row."""
        if len(cells) != len(header):
            self.diag.error(span, f"this row has {len(cells)} values but the header names {len(header)} columns")
            return None
        values = dict(zip(header, cells))
        count = values.pop("count", "1")
        if not re.fullmatch(r"[0-9]{1,9}", count) or int(count) < 1:
            self.diag.error(span, f"count must be a whole number of at least 1, not '{count}'")
            return None
        return values, int(count), span

    def change_table(self, name: str, columns: list[str], node: YNode, what: str, each: list[str]):
        """The rows of an `add:` or `remove:` table, or [] (reported); `each`: the
        fields of the type's `each:`, which its table leaves out."""
        if not isinstance(node, YScalar) or not isinstance(node.value, str):
            self.diag.error(node.span, f"`{what}:` is a table: a header line of field names, then one card a row",
                            f"write it as a block after `{what}: |`")
            return None, []
        header, header_span, lines = split_table(node, self.diag)
        if header is None:
            self.diag.error(node.span, f"the `{what}:` table is empty")
            return None, []
        for col in header:
            if col in each:
                self.diag.error(header_span, f"column '{col}' comes from `each:`: a row of the table of '{name}' "
                                f"is a card of every {col}",
                                f"`{what}:` rows without '{col}' {what} cards of every {col}; "
                                f"to change which {col}s there are, change `each:`")
                return None, []
            if col != "count" and col not in columns:
                self.diag.error(header_span, f"unknown column '{col}' in the table of '{name}'",
                                did_you_mean(col, [*columns, "count"]) or "columns: " + ", ".join(columns))
                return None, []
        rows = [self.row(header, cells, span) for cells, span in lines]
        return header_span, [r for r in rows if r is not None]

    def remove_cards(self, name: str, columns: list[str], rows: list, node: YNode, each: list[str]) -> list:
        _, removals = self.change_table(name, columns, node, "remove", each)
        rows = [list(r) for r in rows]
        for match, count, span in removals:
            found = 0
            for row in rows:
                if found < count and all(row[0][c] == v for c, v in match.items()):
                    taken = min(row[1], count - found)
                    row[1] -= taken
                    found += taken
            rows = [r for r in rows if r[1] > 0]
            if found < count:
                described = ", ".join(f"{c} {v}" for c, v in match.items())
                existing = [" ".join(r[0][c] for c in match) for r in rows]
                self.diag.error(span, f"there is no {name} card with {described} to remove" if found == 0 else
                                f"only {found} {name} card(s) with {described} to remove, not {count}",
                                did_you_mean(" ".join(match.values()), existing))
        return [tuple(r) for r in rows]

    def add_cards(self, name: str, columns: list[str], node: YNode, each: list[str]) -> list:
        header_span, rows = self.change_table(name, columns, node, "add", each)
        if rows and set(rows[0][0]) != set(columns):
            missing = [c for c in columns if c not in rows[0][0]]
            self.diag.error(header_span, f"added {name} cards need a value for every field: "
                            f"the table has no column for {', '.join(missing)}")
            return []
        return rows

    # ------------------------------------------------------------ modes
    def modes(self, old: YNode, new: YNode) -> YNode:
        if not (isinstance(old, YMap) and isinstance(new, YMap)):
            return new
        return self.maps(old, new, self.mode)

    def mode(self, name: str, old: YNode, new: YNode) -> YNode:
        if not (isinstance(old, YMap) and isinstance(new, YMap)):
            return new
        if "extends" in new:
            self.diag.error(new.key_span("extends"), f"mode '{name}' is inherited: `extends:` only starts a new mode",
                            "change the inherited mode's keys directly, or give the new mode another name")
        return self.maps(old, _without(new, "extends"),
                         lambda key, o, n: self.round(name, o, n) if key == "round" else self.value(o, n))

    def mode_extends(self, modes: YMap) -> YMap:
        """Every mode that `extends:` another starts as a copy of it."""
        done: dict[str, YNode] = {}

        def resolve(name: str, stack: tuple[str, ...]) -> YNode:
            if name in done:
                return done[name]
            spec = modes.at(name)
            if isinstance(spec, YMap) and "extends" in spec:
                ref_node = spec.at("extends")
                ref = _name(ref_node)
                if ref not in modes.entries:
                    self.diag.error(ref_node.span, f"there is no mode '{ref}' to extend",
                                    did_you_mean(str(ref), modes.entries))
                    spec = _without(spec, "extends")
                elif ref in stack or ref == name:
                    self.diag.error(ref_node.span, "a cycle of mode `extends`: " + " -> ".join((*stack, name, ref)))
                    spec = _without(spec, "extends")
                else:
                    spec = self.mode(name, resolve(ref, (*stack, name)), _without(spec, "extends"))
            done[name] = spec
            return spec

        return YMap(modes.span, {name: (span, resolve(name, ())) for name, (span, _) in modes.entries.items()})

    def round(self, mode: str, old: YNode, new: YNode) -> YNode:
        """A list of steps replaces the round; a list of changes changes it."""
        if not isinstance(new, YList) or not any(isinstance(i, YMap) and set(STEP_CHANGES) & set(i.entries)
                                                for i in new.items):
            return new
        steps = list(old.items) if isinstance(old, YList) else []

        def find(node: YNode, what: str) -> int | None:
            name = _name(node)
            names = [_name(s.get("step")) if isinstance(s, YMap) else None for s in steps]
            if name in names:
                return names.index(name)
            self.diag.error(node.span, f"mode '{mode}' has no step '{name}' {what}",
                            did_you_mean(str(name), [n for n in names if n]) or
                            "steps: " + ", ".join(n for n in names if n))
            return None

        for item in new.items:
            ops = [op for op in STEP_CHANGES if isinstance(item, YMap) and op in item]
            if not isinstance(item, YMap) or len(ops) != 1:
                self.diag.error(item.span, "a change to a round is one of `replace: STEP`, `insert: STEP` "
                                "or `remove: STEP`",
                                "to add a new step, write `- insert: Its name` with `after:` or `before:`")
                continue
            op = ops[0]
            allowed = (op, *STEP_CHANGES[op])
            for key, (span, _) in item.entries.items():
                if key not in allowed:
                    self.diag.error(span, f"unknown key '{key}' in a `{op}:` change",
                                    did_you_mean(key, allowed) or "allowed keys: " + ", ".join(allowed))
            step = YMap(item.span, {"step": (item.key_span(op), item.at(op)),
                                    **{k: v for k, v in item.entries.items() if k in ("do", "text", "assumed")}})
            if op == "remove":
                i = find(item.at(op), "to remove")
                if i is not None:
                    del steps[i]
            elif op == "replace":
                i = find(item.at(op), "to replace")
                if i is not None:
                    steps[i] = step
            else:
                if "before" in item and "after" in item:
                    self.diag.error(item.key_span("after"), "a step goes `before:` or `after:` another, not both")
                    continue
                anchor = item.get("before") or item.get("after")
                i = len(steps) if anchor is None else find(anchor, f"to insert {'before' if 'before' in item else 'after'}")
                if i is not None:
                    steps.insert(i + ("after" in item), step)
        return YList(new.span, steps)

    # ------------------------------------------------------------ rulings
    def rulings(self, old: YNode, new: YNode) -> YNode:
        if not (isinstance(old, YList) and isinstance(new, YList)):
            return new
        items = list(old.items)

        def ids() -> list[str | None]:
            return [_name(i.get("id")) if isinstance(i, YMap) else None for i in items]

        for item in new.items:
            if isinstance(item, YMap) and "remove" in item:
                rid = _name(item.get("remove"))
                if rid in ids():
                    del items[ids().index(rid)]
                else:
                    self.diag.error(item.value_span("remove"), f"there is no ruling '{rid}' to remove",
                                    did_you_mean(str(rid), [i for i in ids() if i]))
                continue
            rid = _name(item.get("id")) if isinstance(item, YMap) else None
            if rid is not None and rid in ids():
                items[ids().index(rid)] = item
            else:
                items.append(item)
        return YList(new.span, items)
