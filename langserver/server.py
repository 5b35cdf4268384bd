"""The language server: `queries`' answers for an editor, over the Language
Server Protocol (pygls).

Every change is analysed after a short pause (`debounce`: a burst of
keystrokes is analysed once), every save at once; the analysis reads the
text as the editor has it, checks the default number of players and
compiles nothing, so diagnostics follow typing. A save also runs
`rulelang check --format json` on the file in a process of its own (every
number of players, every mode compiled) and adds what it finds.

Requests are answered from the analysis of the document's current text
(made then, if the pause has not ended yet). No request or notification
can take the server down: a failure is logged and answered with nothing.
"""
from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import os
import re
import sys
import traceback

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from queries.analysis import Analysis
from queries.places import Place
from queries.problems import Problem
from queries.reading import Reading, read
from rulelang.errors import Diagnostic
from rulelang.limits import DEFAULT, Limits

from . import convert
from .positions import Document

VERSION = "0.1.0"
DEBOUNCE = 0.075  # seconds without a keystroke before a change is analysed
CHECK_SECONDS = 120  # the longest the full check of a saved file may take
# a file is a ruleset if it says so at the top level (other YAML files get no diagnostics)
RULESET = re.compile(r"^(game|extends)\s*:", re.MULTILINE)


class RulesetServer(LanguageServer):
    def __init__(self, extends_dirs=(), limits: Limits | None = None, debounce: float = DEBOUNCE):
        super().__init__("rulelang", VERSION, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.extends_dirs = tuple(extends_dirs)
        self.limits = limits or DEFAULT
        self.debounce = debounce
        self.analyses: dict[str, tuple[Analysis, Document]] = {}  # uri -> the analysis of its current text
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.checks: dict[str, asyncio.Task] = {}  # uri -> the full check of its saved text
        self.saved: dict[str, tuple[str, list[Problem]]] = {}  # uri -> (text saved, what the full check found)

    # ------------------------------------------------------------ analyses
    def analysis(self, uri: str) -> tuple[Analysis, Document] | None:
        """The analysis of a document's current text (None: it is no ruleset)."""
        text = self.workspace.get_text_document(uri).source
        if not RULESET.search(text):
            return None
        found = self.analyses.get(uri)
        if found is None or found[0].reading.text != text:
            found = self.analyses[uri] = (_analyse(text, path_of(uri), self.limits, self.extends_dirs), Document(text))
        return found

    def changed(self, uri: str, wait: float) -> None:
        """Analyse and publish after `wait` seconds without another change."""
        timer = self.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        self.timers[uri] = asyncio.get_running_loop().call_later(wait, self.publish, uri)

    def publish(self, uri: str) -> None:
        self.timers.pop(uri, None)
        try:
            document = self.workspace.get_text_document(uri)
            found = self.analysis(uri)
            diagnostics = [] if found is None else self.diagnostics(uri, *found)
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, diagnostics, document.version))
        except Exception:  # noqa: BLE001 - never down: say it in the log
            self.log(f"could not publish diagnostics for {uri}:\n{traceback.format_exc()}")

    def diagnostics(self, uri: str, analysis: Analysis, doc: Document) -> list[lsp.Diagnostic]:
        problems = list(analysis.problems)
        text, found = self.saved.get(uri, ("", []))
        if text == analysis.reading.text:
            seen = {(p.place, p.message) for p in problems}
            problems += [p for p in found if (p.place, p.message) not in seen]
        related = self._related_information()
        out = []
        for p in problems:
            if p.file in (None, analysis.path):
                out.append(convert.diagnostic(p, doc, uri, related))
            else:  # in a base this variant extends: shown at its `extends:`
                where = f"in {os.path.basename(p.file)}" + (f":{p.place.line}:{p.place.col}" if p.place else "")
                out.append(convert.diagnostic(p, doc, uri, related, _extends_range(analysis, doc), where))
        return out

    def _related_information(self) -> bool:
        caps = self.client_capabilities.text_document
        publish = caps.publish_diagnostics if caps is not None else None
        return bool(publish and publish.related_information)

    # ------------------------------------------------------------ the full check of a saved file
    def check_saved(self, uri: str) -> None:
        running = self.checks.pop(uri, None)
        if running is not None:
            running.cancel()
        document = self.workspace.get_text_document(uri)
        if RULESET.search(document.source) and os.path.isfile(path_of(uri)):
            self.checks[uri] = asyncio.ensure_future(self._check(uri, document.source))

    async def _check(self, uri: str, text: str) -> None:
        path = path_of(uri)
        command = [sys.executable, "-m", "cli", "check", "--format", "json", path]
        for folder in self.extends_dirs:
            command += ["--extends-dir", folder]
        for field in dataclasses.fields(self.limits):  # the limits the server reads with (`--limit`)
            if getattr(self.limits, field.name) != getattr(DEFAULT, field.name):
                command += ["--limit", f"{field.name}={getattr(self.limits, field.name)}"]
        process = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE,
                                                       stderr=asyncio.subprocess.DEVNULL)
        problems: list[Problem] = []
        try:
            out, _ = await asyncio.wait_for(process.communicate(), CHECK_SECONDS)
            problems = [_problem(p) for p in json.loads(out or b"{}").get("problems", [])]
        except asyncio.CancelledError:  # a newer save checks again
            process.kill()
            raise
        except TimeoutError:
            process.kill()
            self.log(f"rulelang check --format json took more than {CHECK_SECONDS} s on {path}: stopped")
        except (ValueError, KeyError, TypeError):
            self.log(f"rulelang check --format json gave no answer for {path}")
        finally:
            if self.checks.get(uri) is asyncio.current_task():
                del self.checks[uri]
        self.saved[uri] = (text, problems)
        self.publish(uri)

    # ------------------------------------------------------------ helpers
    def log(self, message: str) -> None:
        self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Log, message))


def _analyse(text: str, path: str, limits: Limits, extends_dirs) -> Analysis:
    try:
        return Analysis(read(text, path, limits, extends_dirs))
    except Exception as exc:  # noqa: BLE001 - a bug in the front end: said as a diagnostic, not a crash
        report = Diagnostic(None, f"rulelang could not read this file (a bug in rulelang: {exc!r})",
                            "please report it with the file")
        return Analysis(Reading(path, text, None, None, None, (report,)))


def _problem(data: dict) -> Problem:
    rng = data.get("range")
    place = Place(data["file"], rng["start"]["line"], rng["start"]["column"], rng["end"]["line"],
                  rng["end"]["column"]) if rng else None
    return Problem(data.get("file"), place, data["severity"], data["message"], data.get("hint"))


def _extends_range(analysis: Analysis, doc: Document) -> lsp.Range:
    own = analysis.reading.own
    node = own.entries.get("extends") if hasattr(own, "entries") else None
    if node is None:
        return lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
    return doc.range(Place.of(node[0]))


def path_of(uri: str) -> str:
    """A document's file; an unsaved one is named as if in the current folder."""
    path = to_fs_path(uri) if uri.startswith("file:") else None
    return path or os.path.join(os.getcwd(), re.sub(r"[^\w.-]", "_", uri.rsplit("/", 1)[-1]) or "untitled.yaml")


def answering(empty):
    """A request handler that answers `empty` instead of failing."""
    def wrap(handler):
        @functools.wraps(handler)
        def safe(server: RulesetServer, params):
            try:
                return handler(server, params)
            except Exception:  # noqa: BLE001 - every request gets an answer
                server.log(f"{handler.__name__} failed:\n{traceback.format_exc()}")
                return empty
        return safe
    return wrap


def uri_of(path: str) -> str:
    return from_fs_path(path) or path
