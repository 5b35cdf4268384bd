"""The language server end to end: `rulelang lsp` in a process of its own, and
a real client (pytest-lsp) talking to it over standard input and output."""
from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from generators.prose import english
from rulelang import load_ruleset

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "cli", "lsp"]), scope="module")
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), initialization_options={"debounce": 0.01}))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """Copies of the bundled rulesets the tests open and save (a variant and its base side by side)."""
    where = tmp_path_factory.mktemp("rulesets")
    for name in ("twenty-trials", "twenty-trials-costly-refresh"):
        shutil.copy(RULESETS / f"{name}.yaml", where / f"{name}.yaml")
    (where / "slower.yaml").write_text(SLOWER, encoding="utf-8")
    (where / "seats.yaml").write_text(SEATS, encoding="utf-8")
    return where


# checks with three players (the default), not with two: only the full check on save finds it
SEATS = """\
game: seats
players: {count: 2..3, default: 3, names: [north, east, south]}
vars:
  points: {initial: 0, owner: each}
modes:
  play:
    round:
      - step: Score
        do: |
          points of south += 1
          end game
"""

# a variant of the copy beside it (the bundled costly-refresh extends the bundled base)
SLOWER = """\
extends: twenty-trials.yaml
game: twenty-trials-slower
procedures:
  use_refresh(): |
    refreshes_used += 1
    shuffle action_deck
"""


class Opened:
    """A document open in the editor: its text, and positions found by what is written there."""

    def __init__(self, client: LanguageClient, path: Path):
        self.client, self.path, self.uri = client, path, path.as_uri()
        self.text, self.version = path.read_text(encoding="utf-8"), 1
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(self.uri, "yaml", self.version, self.text)))

    def at(self, written: str, offset: int = 0, nth: int = 0) -> lsp.Position:
        """The position `offset` characters into the `nth` place `written` appears."""
        index = -1
        for _ in range(nth + 1):
            index = self.text.index(written, index + 1)
        index += offset
        line = self.text.count("\n", 0, index)
        return lsp.Position(line, index - (self.text.rfind("\n", 0, index) + 1))

    def edit(self, written: str, replacement: str) -> None:
        start = self.at(written)
        end = lsp.Position(start.line, start.character + len(written))
        self.text = self.text.replace(written, replacement, 1)
        self.version += 1
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=self.version, uri=self.uri),
            [lsp.TextDocumentContentChangePartial(lsp.Range(start, end), replacement)]))

    async def diagnostics(self) -> list[lsp.Diagnostic]:
        """The diagnostics published for the current version (awaited before anything
        else runs after the change: a notification cannot come before it is waited for)."""
        while True:
            published = await self.client.wait_for_notification("textDocument/publishDiagnostics")
            if published.uri == self.uri and published.version == self.version:
                return list(published.diagnostics)

    def doc(self):
        return lsp.TextDocumentIdentifier(self.uri)

    async def hover(self, position: lsp.Position) -> str:
        found = await self.client.text_document_hover_async(lsp.HoverParams(text_document=self.doc(), position=position))
        return found.contents.value if found is not None else ""

    async def definition(self, position: lsp.Position) -> list[lsp.Location]:
        return await self.client.text_document_definition_async(lsp.DefinitionParams(text_document=self.doc(), position=position))

    async def references(self, position: lsp.Position) -> list[lsp.Location]:
        return await self.client.text_document_references_async(
            lsp.ReferenceParams(text_document=self.doc(), position=position,
                                context=lsp.ReferenceContext(include_declaration=True)))

    async def completions(self, position: lsp.Position) -> dict[str, lsp.CompletionItem]:
        found = await self.client.text_document_completion_async(lsp.CompletionParams(text_document=self.doc(), position=position))
        return {item.label: item for item in found.items}


BASE = (Path(__file__).parent.parent / "rulesets" / "twenty-trials.yaml").read_text(encoding="utf-8").split("\n")


def line_of(written: str) -> int:
    """The line (from 1) of the bundled base that first holds `written`: the tests say where by what is
    written there, so that an edit to the ruleset moves nothing they expect."""
    return next(i + 1 for i, line in enumerate(BASE) if written in line)


def where(location: lsp.Location) -> tuple[str, int, str]:
    """A location as (file name, line from 1, the text of its range)."""
    path = Path(location.uri.removeprefix("file://"))
    line = path.read_text(encoding="utf-8").split("\n")[location.range.start.line]
    return path.name, location.range.start.line + 1, line[location.range.start.character:location.range.end.character]


@pytest.mark.asyncio(loop_scope="module")
async def test_an_error_typed_is_underlined_where_it_is_and_cleared_when_fixed(client: LanguageClient, folder: Path):
    doc = Opened(client, folder / "twenty-trials.yaml")
    assert await doc.diagnostics() == []
    doc.edit("while size(hand) < 4 and not empty(action_deck):", "while size(hnad) < 4 and not empty(action_deck):")
    [error] = await doc.diagnostics()
    start = doc.at("hnad")
    assert error.range == lsp.Range(start, lsp.Position(start.line, start.character + 4))
    assert error.message == "unknown zone 'hnad'" and error.severity == lsp.DiagnosticSeverity.Error
    assert error.related_information[0].message == "hint: did you mean 'hand'?"
    doc.edit("size(hnad)", "size(hand)")
    assert await doc.diagnostics() == []


@pytest.fixture(scope="module")
def base(client: LanguageClient, folder: Path) -> Opened:
    return Opened(client, folder / "twenty-trials.yaml")


@pytest.fixture(scope="module")
def variant(client: LanguageClient, folder: Path) -> Opened:
    return Opened(client, folder / "twenty-trials-costly-refresh.yaml")


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_says_what_a_name_is_and_what_it_means_in_english(base: Opened):
    said = await base.hover(base.at("draw_action()", 3, nth=1))
    assert "(procedure) **draw_action**" in said and "Declared at line" in said
    rs = load_ruleset(str(base.path))  # the summary's own sentences for it, through the generator's public API
    assert english(rs, rs.procedures["draw_action"], rs.default_mode).markdown() in said
    said = await base.hover(base.at("let c = top(action_deck)", 20))
    assert "(zone) **action_deck**" in said and "holds action, action_modifier, face down" in said
    assert "the Action Deck" in said
    said = await base.hover(base.at("completes(a, ma, b, mb) as complete", 10))  # `a` is bound by the choice
    assert "(local) **a**" in said and "card (action)" in said


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_statement_gives_its_english(base: Opened):
    said = await base.hover(base.at("lose challenger as exhausted", 16))  # on `as`, no name
    assert said.startswith("*statement*") and "you lose" in said.lower()  # the ending's name is not English


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_and_references_in_one_ruleset(base: Opened):
    [found] = await base.definition(base.at("until can_complete():", 8))
    assert where(found) == ("twenty-trials.yaml", line_of("  can_complete():"), "can_complete")
    [local] = await base.definition(base.at("move d to action_discard", 5))
    assert where(local)[1:] == (base.at("chooses d in hand").line + 1, "d")
    uses = await base.references(base.at("refreshes_used += 1", 2))
    lines = [where(u)[1] for u in uses]
    assert {line_of("refreshes_used: {initial"), line_of("challenger_strength():"), line_of("refreshes_used += 1"),
            line_of("value: refreshes_used")} <= set(lines)
    steps = await base.definition(base.at("applies_to: [challenger, Engage the trial]", 27))
    assert ("twenty-trials.yaml", line_of("- step: Engage the trial"), "Engage the trial") in [where(s) for s in steps]


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_and_references_across_extends(variant: Opened):
    [found] = await variant.definition(variant.at("refreshes_used += 1", 2))
    assert where(found) == ("twenty-trials.yaml", line_of("refreshes_used: {initial"), "refreshes_used")  # in the bundled base
    declared = await variant.definition(variant.at("use_refresh():", 2))
    assert [where(d)[:2] for d in declared] == [("twenty-trials-costly-refresh.yaml", 23),
                                                ("twenty-trials.yaml", line_of("  use_refresh():"))]  # the variant's own first
    calls = [where(r) for r in await variant.references(variant.at("use_refresh():", 2))]
    assert ("twenty-trials.yaml", line_of("          use_refresh()"), "use_refresh") in calls and len(calls) >= 5
    [base_file] = await variant.definition(variant.at("extends: twenty-trials", 12))
    assert base_file.uri.endswith("/rulesets/twenty-trials.yaml")
    said = await variant.hover(variant.at("draw refresh_cost", 8))
    assert "(parameter) **refresh_cost**" in said and "default 1" in said


@pytest.mark.asyncio(loop_scope="module")
async def test_references_in_a_base_reach_the_variants_open(client: LanguageClient, folder: Path, base: Opened):
    slower = Opened(client, folder / "slower.yaml")
    await slower.diagnostics()
    [declared] = await slower.definition(slower.at("shuffle action_deck", 10))
    assert where(declared) == ("twenty-trials.yaml", line_of("  action_deck: "), "action_deck") and declared.uri == base.uri
    found = [where(r) for r in await base.references(base.at("use_refresh():", 2))]
    assert ("slower.yaml", 4, "use_refresh") in found and ("twenty-trials.yaml", line_of("  use_refresh():"), "use_refresh") in found


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_offers_what_is_in_scope(base: Opened, variant: Opened):
    at = re.search(r"\n( +)draw_action\(\)\n\1if c is action:", base.text)  # typed at the rules' indentation
    indent = at.group(1)
    base.edit(at.group()[1:], at.group()[1:].replace("()\n", f"()\n{indent}if c.\n", 1))
    fields = await base.completions(base.at("if c.\n", 5))
    assert {"value", "icon"} <= set(fields) and fields["value"].kind == lsp.CompletionItemKind.Field
    base.edit(f"{indent}if c.\n", f"{indent}dr\n")
    names = await base.completions(base.at(f"{indent}dr\n", len(indent) + 2))
    assert {"draw_action", "c", "hand", "trials_completed", "challenger", "draw", "size"} <= set(names)
    assert names["draw_action"].insert_text == "draw_action()"  # a procedure, where a statement starts
    base.edit(f"{indent}dr\n", "")
    zones = await variant.completions(variant.at("      shuffle action_deck", 14))
    assert {"action_deck", "removed", "chamber", "refresh_cost"} <= set(zones)
    keys = await base.completions(lsp.Position(base.at("      - step: Draw cards").line + 1, 8))
    assert {"do", "text", "step"} <= set(keys)


@pytest.mark.asyncio(loop_scope="module")
async def test_a_save_adds_what_only_the_full_check_finds(client: LanguageClient, folder: Path):
    doc = Opened(client, folder / "seats.yaml")
    assert await doc.diagnostics() == []  # three players: south plays
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(doc.doc()))
    [error] = await doc.diagnostics()  # two players too: rulelang check --format json, in its own process
    assert error.message.startswith("unknown name 'south'") and error.range.start == doc.at("south += 1")


# ------------------------------------------------------------------ fuzzing: random edits, every request answered

PIECES = ["", " ", "  ", "\n", "\n  ", ":", "(", ")", "[", "]", "{", "}", '"', "'", "|", ">", "- ", "#", ".", ",",
          "if ", "draw ", "hand", "c.", "let x = ", "chooses ", " in ", " where ", "move ", "é", "\t", "\u2028", "𝄞",
          "extends: twenty-trials\n", "zones:\n", "  x: {holds: [", "do: |\n    ", "until ", "1..", "0" * 30]


def random_edit(text: str, rng) -> tuple[int, int, str]:
    """A random change: (start offset, end offset, the text written there)."""
    start = rng.randrange(len(text) + 1)
    kind = rng.random()
    if kind < 0.4:
        return start, min(len(text), start + rng.randrange(1, 20)), ""
    if kind < 0.8:
        return start, start, "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 4)))
    lines = text.split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    offset = sum(len(x) + 1 for x in lines[:i])
    return offset, offset, lines[j] + "\n"  # a line copied elsewhere


async def fuzz(client: LanguageClient, path: Path, edits: int, seed: int) -> None:
    import asyncio
    import random

    from langserver.positions import Document
    rng = random.Random(seed)
    doc = Opened(client, path)
    pristine = doc.text
    for n in range(edits):
        if n % 4 == 0:  # back to the ruleset as it was, so that most edits break a file that mostly reads
            doc.edit(doc.text, pristine)
        start, end, written = random_edit(doc.text, rng)
        before = Document(doc.text)
        change = lsp.TextDocumentContentChangePartial(lsp.Range(before.position(start), before.position(end)), written)
        doc.text = doc.text[:start] + written + doc.text[end:]
        doc.version += 1
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=doc.version, uri=doc.uri), [change]))
        here = Document(doc.text).position(rng.randrange(len(doc.text) + 1))
        answers = await asyncio.wait_for(asyncio.gather(
            doc.hover(here), doc.definition(here), doc.references(here), doc.completions(here),
            client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=doc.doc())),
            client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(text_document=doc.doc()))),
            timeout=60)
        assert len(answers) == 6
    doc.edit(doc.text[:1], doc.text[:1])  # a change waited for at once: its diagnostics cannot come first
    assert isinstance(await doc.diagnostics(), list)
    failures = [m.message for m in client.log_messages if "failed" in m.message or "could not" in m.message]
    assert failures == [], failures[0]


@pytest.mark.asyncio(loop_scope="module")
async def test_random_edits_get_every_request_answered(client: LanguageClient, folder: Path, tmp_path: Path):
    (tmp_path / "fuzzed.yaml").write_text((folder / "twenty-trials-costly-refresh.yaml").read_text())
    await fuzz(client, tmp_path / "fuzzed.yaml", edits=12, seed=1)


@pytest.mark.slow
@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("name, seed", [("twenty-trials", 2), ("hand-of-fate-ordeals", 3), ("gauntlet-race", 4)])
async def test_many_random_edits_get_every_request_answered(client: LanguageClient, tmp_path: Path, name, seed):
    (tmp_path / f"{name}.yaml").write_text((RULESETS / f"{name}.yaml").read_text())
    await fuzz(client, tmp_path / f"{name}.yaml", edits=150, seed=seed)
