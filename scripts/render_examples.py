"""Render the example pictures in docs/images/ from a bundled ruleset.

    python scripts/render_examples.py [RULESET] [--cards]

Makes the rules summary, the quick reference and the card sheets (with
crop marks, 3 mm bleed and backs) with `rulelang`, and a row of card faces
from every bundled game (`card-faces.png`); then turns PDF pages into PNG
with pdftoppm (Debian: poppler-utils) and screenshots HTML with headless
Chromium (Debian: chromium), the way a person would look at them.
`--cards` makes the card pictures only. Needs the [pdf] extra. Look at the
pictures after running it.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"


def run(*args: str) -> None:
    result = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(args)}\n{result.stderr}")


def page_png(pdf: Path, page: int, out: Path, dpi: int = 80) -> None:
    """One page of a PDF as a PNG, through pdftoppm."""
    stem = out.with_suffix("")
    run("pdftoppm", "-png", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", str(pdf), str(stem))


# (ruleset, the start of a card's file name): faces that show each part of the layout
FACES = [("twenty-trials", "013-precision-6"), ("gauntlet-race", "010-arrow-1"),
         ("hand-of-fate-ordeals", "059-quick-wits"), ("hand-of-fate-ordeals", "081-berserker-greatsword"),
         ("hand-of-fate-ordeals", "144-jack-of-plague"), ("gauntlet-16-7", "020-fury"),
         ("gauntlet-race", "061-arrow-tile"), ("gauntlet-gobbots", "021-gobbot-m4-a2-h1")]


def screenshot(html: Path, out: Path, width: int, height: int) -> None:
    run("chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        f"--screenshot={out}", f"--window-size={width},{height}", html.as_uri())


def card_faces(cli: list[str], t: Path) -> None:
    """One page of faces from several games, side by side at their printed sizes."""
    images = []
    for ruleset, start in FACES:
        folder = t / f"faces-{ruleset}"
        if not folder.exists():
            run(*cli, "cards", ruleset, "-o", str(folder), "--format", "svg")
        (svg,) = [p for p in folder.glob(start + "*.svg") if not p.stem.endswith("-back")]
        images.append(f'<img src="{svg.as_uri()}" style="height:{_height(svg.read_text())}mm">')
    page = t / "faces.html"
    page.write_text('<!DOCTYPE html><html><body style="margin:0;padding:3mm;background:#fff;display:flex;'
                    'gap:3mm;align-items:flex-start">' + "".join(images) + "</body></html>")
    screenshot(page, IMAGES / "card-faces.png", 2000, 360)


def _height(svg: str) -> str:
    return svg.split('height="', 1)[1].split("mm", 1)[0]


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--cards"]
    ruleset = args[0] if args else "twenty-trials"
    missing = [tool for tool in ("pdftoppm", "chromium") if shutil.which(tool) is None]
    if missing:
        sys.exit(f"needs {' and '.join(missing)} (Debian: apt-get install poppler-utils chromium)")
    IMAGES.mkdir(parents=True, exist_ok=True)
    cli = [sys.executable, "-m", "cli"]
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        run(*cli, "cards", ruleset, "-o", str(t / "cards.pdf"), "--backs", "--crop-marks", "--bleed", "3")
        page_png(t / "cards.pdf", 1, IMAGES / "card-sheet-front.png")
        page_png(t / "cards.pdf", 2, IMAGES / "card-sheet-back.png")
        card_faces(cli, t)
        if "--cards" not in sys.argv:
            run(*cli, "summary", ruleset, "-o", str(t / "summary.pdf"))
            run(*cli, "summary", ruleset, "-o", str(t / "summary.html"))
            run(*cli, "summary", ruleset, "--quick", "-o", str(t / "quick.pdf"))
            page_png(t / "summary.pdf", 3, IMAGES / "summary-page.png")
            page_png(t / "quick.pdf", 1, IMAGES / "quick-reference.png", dpi=100)
            screenshot(t / "summary.html", IMAGES / "summary-html.png", 1000, 1300)
    for png in sorted(IMAGES.glob("*.png")):
        print(png.relative_to(ROOT))


if __name__ == "__main__":
    main()
