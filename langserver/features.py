"""What the server answers: one handler per request or notification."""
from __future__ import annotations

import os

from lsprotocol import types as lsp

from . import convert
from .positions import Document
from .server import RulesetServer, answering, uri_of


def make_server(extends_dirs=(), debounce: float | None = None, limits=None) -> RulesetServer:
    server = RulesetServer(extends_dirs, limits, **({"debounce": debounce} if debounce is not None else {}))

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: RulesetServer, params: lsp.InitializeParams):
        """`initializationOptions`: {"extendsDirs": [...], "debounce": seconds} (the editor's settings)."""
        options = params.initialization_options if isinstance(params.initialization_options, dict) else {}
        ls.extends_dirs += tuple(d for d in options.get("extendsDirs") or [] if isinstance(d, str))
        debounce = options.get("debounce")
        if isinstance(debounce, (int, float)) and not isinstance(debounce, bool) and 0 <= debounce <= 5:
            ls.debounce = float(debounce)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulesetServer, params: lsp.DidOpenTextDocumentParams):
        ls.changed(params.text_document.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulesetServer, params: lsp.DidChangeTextDocumentParams):
        ls.changed(params.text_document.uri, ls.debounce)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulesetServer, params: lsp.DidSaveTextDocumentParams):
        uri = params.text_document.uri
        if uri in ls.timers:  # changes not yet published: now
            ls.changed(uri, 0)
        ls.check_saved(uri)
        for other in list(ls.analyses):  # a variant reads its base again (any open file may extend this one)
            if other != uri and "extends" in ls.analyses[other][0].reading.text:
                ls.changed(other, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesetServer, params: lsp.DidCloseTextDocumentParams):
        uri = params.text_document.uri
        for table in (ls.analyses, ls.saved):
            table.pop(uri, None)
        for pending in (ls.timers.pop(uri, None), ls.checks.pop(uri, None)):
            if pending is not None:
                pending.cancel()
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    @answering(None)
    def hover(ls: RulesetServer, params: lsp.HoverParams):
        found = ls.analysis(params.text_document.uri)
        if found is None:
            return None
        analysis, doc = found
        line, col = doc.place_at(params.position)
        text = analysis.hover(line, col)
        if not text:
            return None
        occurrence = analysis.at(line, col)
        rng = doc.range(occurrence.place) if occurrence is not None else None
        return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text), rng)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    @answering([])
    def definition(ls: RulesetServer, params: lsp.DefinitionParams):
        return _locations(ls, params, lambda a, line, col: a.definition(line, col))

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    @answering([])
    def references(ls: RulesetServer, params: lsp.ReferenceParams):
        """In this file's chain, and in every open variant that extends this file."""
        declarations = params.context.include_declaration if params.context is not None else True
        here = _locations(ls, params, lambda a, line, col: a.references(line, col, declarations))
        found = ls.analysis(params.text_document.uri)
        if found is None:
            return here
        path = os.path.realpath(found[0].path)
        line, col = found[1].place_at(params.position)
        for uri, (other, _) in list(ls.analyses.items()):
            if uri != params.text_document.uri and any(os.path.realpath(f) == path for f in other.files):
                base = next(f for f in other.files if os.path.realpath(f) == path)
                here += _converted(other, other.references(line, col, declarations, file=base),
                                   {found[0].path: params.text_document.uri, other.path: uri})
        return list({(x.uri, x.range.start.line, x.range.start.character): x for x in here}.values())

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    @answering(lsp.CompletionList(is_incomplete=False, items=[]))
    def completion(ls: RulesetServer, params: lsp.CompletionParams):
        found = ls.analysis(params.text_document.uri)
        if found is None:
            return lsp.CompletionList(is_incomplete=False, items=[])
        analysis, doc = found
        line, col = doc.place_at(params.position)
        return lsp.CompletionList(is_incomplete=False,
                                  items=[convert.completion(c) for c in analysis.completions(line, col)])

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @answering([])
    def document_symbol(ls: RulesetServer, params: lsp.DocumentSymbolParams):
        found = ls.analysis(params.text_document.uri)
        if found is None:
            return []
        analysis, doc = found
        return [convert.symbol(o, doc) for o in analysis.outline()]

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                    lsp.SemanticTokensLegend(token_types=convert.TOKEN_TYPES, token_modifiers=convert.TOKEN_MODIFIERS))
    @answering(lsp.SemanticTokens(data=[]))
    def semantic_tokens(ls: RulesetServer, params: lsp.SemanticTokensParams):
        found = ls.analysis(params.text_document.uri)
        if found is None:
            return lsp.SemanticTokens(data=[])
        analysis, doc = found
        return lsp.SemanticTokens(data=convert.semantic_tokens(analysis.tokens(), doc))

    return server


def _locations(ls: RulesetServer, params, ask) -> list[lsp.Location]:
    found = ls.analysis(params.text_document.uri)
    if found is None:
        return []
    analysis, doc = found
    line, col = doc.place_at(params.position)
    return _converted(analysis, ask(analysis, line, col), {analysis.path: params.text_document.uri})


def _converted(analysis, places, uris: dict[str, str]) -> list[lsp.Location]:
    """Places in the files an analysis read, as locations (`uris`: the documents open for some of them)."""
    texts = analysis.files
    docs = {name: Document(texts[name]) for name in {p.file for p in places} if name in texts}
    return [lsp.Location(uris.get(p.file) or uri_of(os.path.abspath(p.file)), docs[p.file].range(p))
            for p in places if p.file in docs]
