"""The analysis's answers as the Language Server Protocol's types."""
from __future__ import annotations

from lsprotocol import types as lsp

from queries.completion import Completion
from queries.outline import Outline
from queries.problems import Problem
from queries.tokens import Token

from .positions import Document

# semantic tokens: the standard types the names of a ruleset read as
TOKEN_TYPES = ["keyword", "number", "string", "comment", "operator", "namespace", "type", "enum", "enumMember",
               "property", "variable", "parameter", "function", "method", "class", "struct", "event"]
TOKEN_MODIFIERS = ["declaration", "readonly", "defaultLibrary"]
_TOKEN = {"zone": ("namespace",), "card type": ("type",), "type": ("enum",), "value": ("enumMember",),
          "field": ("property",), "mark": ("property",), "variable": ("variable",),
          "parameter": ("variable", "readonly"), "local": ("parameter",), "define": ("function",),
          "procedure": ("method",), "built-in": ("function", "defaultLibrary"), "role": ("class",),
          "die": ("struct",), "event": ("event",)}

_COMPLETION = {"variable": lsp.CompletionItemKind.Variable, "parameter": lsp.CompletionItemKind.Constant,
               "zone": lsp.CompletionItemKind.Module, "role": lsp.CompletionItemKind.Class,
               "define": lsp.CompletionItemKind.Function, "procedure": lsp.CompletionItemKind.Method,
               "card type": lsp.CompletionItemKind.Struct, "die": lsp.CompletionItemKind.Struct,
               "event": lsp.CompletionItemKind.Event, "value": lsp.CompletionItemKind.EnumMember,
               "built-in": lsp.CompletionItemKind.Function, "local": lsp.CompletionItemKind.Variable,
               "field": lsp.CompletionItemKind.Field, "mark": lsp.CompletionItemKind.Field,
               "keyword": lsp.CompletionItemKind.Keyword, "key": lsp.CompletionItemKind.Property,
               "step": lsp.CompletionItemKind.Reference, "mode": lsp.CompletionItemKind.Module}

_SYMBOL = {"section": lsp.SymbolKind.Namespace, "mode": lsp.SymbolKind.Module, "step": lsp.SymbolKind.Function,
           "define": lsp.SymbolKind.Function, "procedure": lsp.SymbolKind.Method, "card type": lsp.SymbolKind.Struct,
           "field": lsp.SymbolKind.Field, "zone": lsp.SymbolKind.Object, "variable": lsp.SymbolKind.Variable,
           "parameter": lsp.SymbolKind.Constant, "event": lsp.SymbolKind.Event, "ability": lsp.SymbolKind.Interface,
           "type": lsp.SymbolKind.Enum, "die": lsp.SymbolKind.Struct, "ruling": lsp.SymbolKind.String,
           "setup": lsp.SymbolKind.Constructor}


def diagnostic(problem: Problem, doc: Document, uri: str, related: bool, elsewhere: lsp.Range | None = None,
               where: str | None = None) -> lsp.Diagnostic:
    """`elsewhere`: the range in this file a problem of another file (a base) is shown at; `where` names that place."""
    rng = elsewhere or (doc.range(problem.place) if problem.place else lsp.Range(lsp.Position(0, 0),
                                                                                   lsp.Position(0, 0)))
    message = problem.message if where is None else f"{where}: {problem.message}"
    info = None
    if problem.hint and related:
        info = [lsp.DiagnosticRelatedInformation(lsp.Location(uri, rng), f"hint: {problem.hint}")]
    elif problem.hint:
        message += f"\nhint: {problem.hint}"
    severity = lsp.DiagnosticSeverity.Error if problem.severity == "error" else lsp.DiagnosticSeverity.Warning
    return lsp.Diagnostic(rng, message, severity, source="rulelang", related_information=info)


def completion(c: Completion) -> lsp.CompletionItem:
    docs = lsp.MarkupContent(lsp.MarkupKind.Markdown, c.documentation) if c.documentation else None
    return lsp.CompletionItem(c.label, kind=_COMPLETION.get(c.kind, lsp.CompletionItemKind.Text),
                              detail=c.detail or c.kind, documentation=docs, insert_text=c.insert)


def symbol(o: Outline, doc: Document) -> lsp.DocumentSymbol:
    return lsp.DocumentSymbol(o.name or "?", _SYMBOL.get(o.kind, lsp.SymbolKind.Key), doc.range(o.place),
                              doc.range(o.name_place), detail=o.detail or None,
                              children=[symbol(c, doc) for c in o.children])


def semantic_tokens(tokens: list[Token], doc: Document) -> list[int]:
    """The protocol's encoding: each token relative to the one before."""
    data: list[int] = []
    line = start = 0
    for t in tokens:
        kinds = _TOKEN.get(t.kind, (t.kind,))
        if kinds[0] not in TOKEN_TYPES:
            continue
        rng = doc.range(t.place)
        if rng.start.line != rng.end.line:
            continue
        modifiers = sum(1 << TOKEN_MODIFIERS.index(m) for m in (*kinds[1:], *(("declaration",) if t.declares
                                                                                  else ())))
        delta = rng.start.line - line
        data += [delta, rng.start.character - (start if delta == 0 else 0),
                 rng.end.character - rng.start.character, TOKEN_TYPES.index(kinds[0]), modifiers]
        line, start = rng.start.line, rng.start.character
    return data
