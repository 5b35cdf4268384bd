"""The rulelang language server: diagnostics, hover in English, definitions,
references, completion, outline and colour for ruleset files, in any editor
that speaks the Language Server Protocol (`rulelang lsp`; docs/editors.md).

It answers from `queries`, the analysis the command line and the playground
share; it sits on the top floor beside `cli/`, and nothing imports it but
`rulelang lsp`.
"""
from __future__ import annotations


def serve(extends_dirs=(), limits=None) -> None:
    """Serve on standard input and output until the editor says exit."""
    import os

    from .features import make_server
    # copies of the standard streams, which the server closes when it stops (the command's own stay open)
    with os.fdopen(os.dup(0), "rb") as stdin, os.fdopen(os.dup(1), "wb") as stdout:
        make_server(extends_dirs, limits=limits).start_io(stdin, stdout)
