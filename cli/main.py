"""The `rulelang` command: check, run, play, replay, simulate, compare, sweep, cover and show rulesets, and print them.

Every mistake in a ruleset, a parameter or the command line ends in a located
message and exit code 2, never a Python traceback.
"""
from __future__ import annotations

import argparse
import gc
import importlib
import os
import signal
import sys
import threading
from contextlib import contextmanager

from .output import Output

STDOUT = "standard output"


class Terminated(KeyboardInterrupt):
    """SIGTERM: stop as Ctrl-C does — workers stopped, files closed whole —
    and pass agents' guards as Ctrl-C does (asking.py)."""


def main(argv: list[str] | None = None) -> int:
    with _outputs(), _on_sigterm(), _thawed_after(argv is not None):
        parser = build_parser()
        args = parser.parse_args(argv)
        settled()  # (the modules the command imported)
        try:
            code = args.command(args)
            sys.stdout.flush()  # a full disk or a closed pipe is reported here, not at exit
            return code
        except Exception as exc:
            return _report(exc)
        except Terminated:
            return _say("terminated", 143)
        except KeyboardInterrupt:
            return _say("\ninterrupted", 130)


def settled() -> None:
    """Every object alive now frozen (gc.freeze) until `main` returns: what a command builds once and
    keeps (the modules it imports, a ruleset's IR, the compiled rules) is walked by no later
    collection, which would find nothing to free in it (a twelfth of the instructions of a warm
    `simulate` of Twenty Trials before its games, and 0.7% of each game's)."""
    gc.freeze()


@contextmanager
def _thawed_after(called: bool):
    """What `settled` froze collected again once the command is done, when `main` was called with
    its arguments by code that goes on (a test); a process's own command ends with the process
    (and the collection at its exit walks the frozen objects no more than the games did)."""
    try:
        yield
    finally:
        if called:
            gc.unfreeze()


# What an error a command raises is, by where its class is defined: the commands import their
# machinery only when they run, so a class of a module never imported cannot be what was raised.
_MISTAKES = (("rulelang.errors", "RulesetError"), ("interpreter.agents.base", "SearchFailed"),
             ("interpreter.runtime.errors", "RuleError"), ("cli.common", "UsageError"))
_REFUSALS = (("interpreter.engine.logs", "ReplayError"), ("interpreter.engine.saves", "SaveError"),
             ("interpreter.runtime.errors", "IllegalAction"), ("interpreter.agents.asking", "AgentError"),
             ("interpreter.analysis.records", "RowsError"), ("interpreter.analysis.backends", "BackendError"))


def _is(exc: Exception, module: str, name: str) -> bool:
    kind = getattr(sys.modules.get(module), name, None)
    return kind is not None and isinstance(exc, kind)


def _report(exc: Exception) -> int:
    ruleset, search, rule, usage = (_is(exc, *where) for where in _MISTAKES)
    if ruleset:
        return _say(exc.format(), 2)
    if search:
        return _say(exc.diagnostic.format() + f"\nthe rules failed inside the search of agent '{exc.agent}' "
                    f"({exc.role}), in a game they can reach: a mistake in the ruleset that this game had not "
                    "met yet", 2)
    if rule:
        return _say(exc.diagnostic.format() + "\nthe rules failed while running: this is a mistake in the ruleset", 2)
    if usage:
        return _say(f"rulelang: error: {exc}", 2)
    if any(_is(exc, *where) for where in _REFUSALS):
        return _say(f"rulelang: {exc}", 1)
    if isinstance(exc, BrokenPipeError):  # the reader left (`| head`): nothing more to say
        _quiet_stdout()
        return 0
    if isinstance(exc, OSError):  # a full disk, a file that went away: the machine's problem, not ours
        if exc.filename == STDOUT:
            _quiet_stdout()
        return _say(f"rulelang: error: {exc.filename}: {exc.strerror}" if exc.filename else f"rulelang: error: {exc}", 1)
    if os.environ.get("RULELANG_DEBUG"):
        import traceback  # (only here: 6M instructions of every command's start-up)
        traceback.print_exception(exc)
    return _say(f"rulelang: internal error ({exc!r}); this is a bug in rulelang. "
                "Run with RULELANG_DEBUG=1 for the details.", 3)


def _say(message: str, code: int) -> int:
    try:
        print(message, file=sys.stderr)
    except OSError:
        pass  # nowhere left to say it: the exit code tells
    return code


def _quiet_stdout() -> None:
    """Standard output failed: what is still buffered goes nowhere, instead of
    failing again when Python flushes it at exit."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a file (a test's capture): nothing is flushed at exit
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


@contextmanager
def _outputs():
    """Everything the commands print goes through output.Output."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Output(out, STDOUT), Output(err, "standard error")
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


@contextmanager
def _on_sigterm():
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    owner = os.getpid()

    def stop(signum, frame):
        if os.getpid() != owner:  # a worker forked with this handler, before it set its own: end as SIGTERM ends it
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise Terminated()
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# Every command: the module that adds its arguments and runs it, and what it does. A command's
# module (and the machinery it imports) is loaded only when that command is used, so
# `rulelang --help` imports none of them.
COMMANDS = {
    "check": ("check", "check rulesets and summarise them"),
    "lsp": ("check", "the language server for editors, on standard input and output (docs/editors.md)"),
    "run": ("games", "play one game headless and print its outcome"),
    "play": ("games", "play in the terminal"),
    "upgrade": ("upgrade", "rewrite a ruleset of an older language version for this one"),
    "replay": ("games", "replay a game log and check it still plays the same"),
    "simulate": ("simulation", "play many games and summarise the outcomes"),
    "compare": ("simulation", "play the same seeds under several rulesets and compare them"),
    "coverage": ("coverage", "play games and report every rule that never ran, and how often each did"),
    "sweep": ("sweep", "play the same seeds under every combination of parameters, rulesets and agents"),
    "show": ("show", "print a ruleset as it will run: a variant merged with what it extends"),
    "schema": ("show", "print the JSON Schema of ruleset files (for editors)"),
    "summary": ("printing", "print the rules: a summary, or a one-page quick reference per mode"),
    "cards": ("printing", "print card sheets (PDF or HTML) or one image per card (a folder)"),
    "solve": ("solve", "tell whether a solitaire deal is winnable, and how"),
    "rulesets": ("about", "list the rulesets that come with rulelang (each a name for any command)"),
    "docs": ("about", "list rulelang's documents, or print one (rulelang docs language)"),
    "serve": ("serving", "the browser playground: edit, read, play and simulate rulesets (docs/playground.md)"),
}


class _Commands(argparse._SubParsersAction):
    """The commands: each one's parser is made, and its arguments added by its module's
    `ARGUMENTS[name]`, when that command is chosen (`rulelang --help` lists them all without), so
    a run makes one parser, not eighteen (each made asks gettext for three translations: 19M
    instructions of a warm `simulate`'s start-up)."""

    def add_parser(self, name, **kwargs):
        self._choices_actions.append(self._ChoicesPseudoAction(name, (), kwargs["help"]))
        self._name_parser_map[name] = None  # (a choice: its parser is made below once chosen)

    def __call__(self, parser, namespace, values, option_string=None):
        name = values[0]  # (one of the choices: argparse has checked it)
        if self._name_parser_map[name] is None:
            made = self._name_parser_map[name] = self._parser_class(prog=f"{self._prog_prefix} {name}")
            importlib.import_module(f"{__package__}.{COMMANDS[name][0]}").ARGUMENTS[name](made)
        super().__call__(parser, namespace, values, option_string)


class _Version(argparse.Action):
    """`--version`: the installed version, looked up only when asked."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default,
                         help="show program's version number and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        from rulelang import version
        print(f"rulelang {version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulelang", description=__doc__.splitlines()[0],
                                     epilog="`rulelang COMMAND --help` says more of each; `rulelang docs` lists "
                                            "the guides (the language, authoring, printing, agents, reliability).")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(required=True, metavar="COMMAND", action=_Commands)
    for command, (_, says) in COMMANDS.items():
        sub.add_parser(command, help=says)
    return parser
