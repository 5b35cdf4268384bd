"""Where text leaves the program: standard output, standard error and logs.

Much of what rulelang prints comes from others: ruleset text (titles, zone
text, labels), file names, agent names, what a person typed. A terminal
obeys the control characters in it — an escape sequence can retitle the
window, clear the screen or hide text, a bidi override can reverse what
follows — so every stream the commands write is an `Output`, which shows
them escaped (`\\x1b`, `\\u202e`), and names itself when a write fails.
"""
from __future__ import annotations

import re

# C0 and C1 controls but tab and line break, DEL, and the bidi controls
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def escape(text: str) -> str:
    return CONTROLS.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


class Output:
    """A text stream written through `escape`; a write that fails raises an
    OSError naming the stream (the main program reports it as such). Not an
    io.IOBase, whose finaliser would close the stream under it."""

    def __init__(self, stream, name: str):
        self.stream, self.name = stream, name

    def write(self, text: str) -> int:
        self._do(self.stream.write, escape(text))
        return len(text)

    def flush(self) -> None:
        self._do(self.stream.flush)

    def _do(self, action, *args):
        try:
            return action(*args)
        except BrokenPipeError:
            raise  # a reader that left (`| head`): not an error
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, self.name) from None

    @property
    def raw(self):
        """The stream under this one, for our own control characters (a progress bar's \\r)."""
        return self.stream

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    def close(self) -> None:
        self._do(self.stream.close)  # a log's last lines are written here

    @property
    def encoding(self):
        return getattr(self.stream, "encoding", "utf-8")
