"""`rulelang summary` and `rulelang cards`: printed rules and card sheets."""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from generators.components import printed_cards
from generators.pdf import PdfUnavailable
from generators.publish import SUMMARY_FORMATS, CardOptions, card_images, card_sheets, summary_file
from generators.sheets import PAPERS, SIZES, parse_size
from rulelang.errors import did_you_mean

from .common import load, name, refuse_inputs, ruleset_args


def summary_arguments(p) -> None:
    ruleset_args(p)
    p.add_argument("--mode", type=name, help="only this mode (default: every mode)")
    p.add_argument("--quick", action="store_true", help="a one-page quick reference per mode")
    p.add_argument("-o", "--output", metavar="FILE.md|FILE.html|FILE.pdf",
                   help="where to write it (default: Markdown on standard output)")
    p.set_defaults(command=cmd_summary)


def cards_arguments(p) -> None:
    ruleset_args(p)
    p.add_argument("-o", "--output", required=True, metavar="OUT.pdf|OUT.html|OUT_DIR",
                   help="a PDF or HTML of sheets, or a folder for one PNG (or SVG) per card")
    p.add_argument("--size", default="poker", help=f"{', '.join(SIZES)} or WxHmm (default poker)")
    p.add_argument("--paper", default="a4", choices=sorted(PAPERS), help="paper size (default a4)")
    p.add_argument("--bleed", type=float, default=0.0, metavar="MM", help="bleed around each card (default 0)")
    p.add_argument("--crop-marks", action="store_true", help="crop marks in the margin")
    p.add_argument("--backs", action="store_true", help="card backs: mirrored pages for long-edge duplex")
    p.add_argument("--format", choices=("png", "svg"), default="png",
                   help="for a folder: PNG at 300 dpi (default) or SVG")
    p.set_defaults(command=cmd_cards)


ARGUMENTS = {"summary": summary_arguments, "cards": cards_arguments}


def _fail(message: str) -> int:
    print(f"rulelang: error: {message}", file=sys.stderr)
    return 2


def _warn(warnings: list[str]) -> None:
    for w in warnings:
        print(f"rulelang: warning: {w}", file=sys.stderr)


def _write(path: Path, data: bytes, rs, args) -> str | None:
    refuse_inputs({"-o": str(path)}, rs, args)
    try:
        path.write_bytes(data)
    except OSError as exc:
        return f"cannot write {path}: {exc.strerror}"
    return None


def _write_in(folder: Path, name: str, data: bytes, rs, args) -> str | None:
    """A file of a folder of images: written beside its name and renamed onto it, so a link
    already there (to anywhere) is replaced, never written through; a file is never half-written."""
    path = folder / name
    refuse_inputs({"-o": str(path)}, rs, args)
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".part")
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(data)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as exc:
        return f"cannot write {path}: {exc.strerror}"
    return None


def cmd_summary(args) -> int:
    rs = load(args)
    if args.mode is not None and args.mode not in rs.modes:
        return _fail(f"no mode '{args.mode}' in {rs.name}; "
                     + (did_you_mean(args.mode, rs.modes) or f"modes: {', '.join(rs.modes)}"))
    fmt = "md"
    if args.output:
        fmt = Path(args.output).suffix.lower().lstrip(".")
        fmt = "md" if fmt == "markdown" else fmt
        if fmt not in SUMMARY_FORMATS:
            return _fail(f"cannot tell the format of '{args.output}': name it .md, .html or .pdf")
    try:
        data, warnings = summary_file(rs, fmt, args.mode, args.quick)
    except PdfUnavailable as exc:
        return _fail(str(exc))
    _warn(warnings)
    if not args.output:
        sys.stdout.write(data.decode("utf-8"))
        return 0
    problem = _write(Path(args.output), data, rs, args)
    return _fail(problem) if problem else 0


def cmd_cards(args) -> int:
    rs = load(args)
    printed = len(printed_cards(rs))
    if not printed:
        why = "every component type has `print: false`" if rs.cards else "it has no components"
        return _fail(f"{rs.name} has no cards to print: {why}")
    try:
        width, height = parse_size(args.size)
    except ValueError as exc:
        return _fail(str(exc))
    if not 0 <= args.bleed <= 10:
        return _fail("--bleed must be between 0 and 10 mm")
    options = CardOptions(width, height, args.bleed, args.paper, args.crop_marks, args.backs)
    out = Path(args.output)
    folder = args.output.endswith(("/", os.sep)) or out.is_dir()  # `-o x.pdf/` names a folder
    suffix = "" if folder else out.suffix.lower()
    try:
        if suffix in (".pdf", ".html"):
            data, warnings = card_sheets(rs, options, suffix[1:])
            problem = _write(out, data, rs, args)
            if problem:
                return _fail(problem)
            written = f"{printed} cards to {out}"
        elif suffix:
            return _fail(f"cannot tell what to write to '{out}': name a .pdf or .html file, or a folder")
        else:
            try:
                out.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                return _fail(f"cannot make the folder {out}: {exc.strerror}")
            files, warnings = card_images(rs, options, args.format)
            for file, data in files:
                problem = _write_in(out, file, data, rs, args)
                if problem:
                    return _fail(problem)
            written = f"{len(files)} {args.format.upper()} files to {out}/"
    except (PdfUnavailable, ValueError) as exc:
        return _fail(str(exc))
    _warn(warnings)
    print(f"wrote {written}")
    return 0
