"""`rulelang serve`: the browser playground (docs/playground.md)."""
from __future__ import annotations

from .common import UsageError, whole


def serve_arguments(p) -> None:
    p.add_argument("target", nargs="?", metavar="RULESET|FOLDER",
                   help="the folder served (default: this one), or a ruleset to open (its folder is served; "
                        "a bundled ruleset's name serves this folder)")
    p.add_argument("--port", type=whole(0, 65535), default=0, metavar="P",
                   help="the port on 127.0.0.1 (default: a free one)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.set_defaults(command=cmd_serve)


ARGUMENTS = {"serve": serve_arguments}


def cmd_serve(args) -> int:
    try:
        import starlette  # noqa: F401 - the extra it needs
        import uvicorn  # noqa: F401
    except ImportError:
        raise UsageError("the playground needs the web extra: pip install 'rulelang[web]'") from None
    import playground

    try:
        playground.serve(args.target, args.port, args.open)
    except playground.Refused as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror}") from None
    return 0
