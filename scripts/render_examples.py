"""Render the example pictures in docs/images/ from a bundled ruleset.

    python scripts/render_examples.py [RULESET]

Makes the rules summary, the quick reference and the card sheets (with
crop marks, 3 mm bleed and backs) with `rulelang`, then turns PDF pages into
PNG with pdftoppm (Debian: poppler-utils) and screenshots the HTML summary
with headless Chromium (Debian: chromium), the way a person would look at
them. Needs the [pdf] extra. Look at the pictures after running it.
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


def main() -> None:
    ruleset = sys.argv[1] if len(sys.argv) > 1 else "twenty-trials"
    missing = [tool for tool in ("pdftoppm", "chromium") if shutil.which(tool) is None]
    if missing:
        sys.exit(f"needs {' and '.join(missing)} (Debian: apt-get install poppler-utils chromium)")
    IMAGES.mkdir(parents=True, exist_ok=True)
    cli = [sys.executable, "-m", "cli"]
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        run(*cli, "summary", ruleset, "-o", str(t / "summary.pdf"))
        run(*cli, "summary", ruleset, "-o", str(t / "summary.html"))
        run(*cli, "summary", ruleset, "--quick", "-o", str(t / "quick.pdf"))
        run(*cli, "cards", ruleset, "-o", str(t / "cards.pdf"), "--backs", "--crop-marks", "--bleed", "3")
        page_png(t / "summary.pdf", 3, IMAGES / "summary-page.png")
        page_png(t / "quick.pdf", 1, IMAGES / "quick-reference.png", dpi=100)
        page_png(t / "cards.pdf", 1, IMAGES / "card-sheet-front.png")
        page_png(t / "cards.pdf", 2, IMAGES / "card-sheet-back.png")
        run("chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--screenshot={IMAGES / 'summary-html.png'}", "--window-size=1000,1300",
            (t / "summary.html").as_uri())
    for png in sorted(IMAGES.glob("*.png")):
        print(png.relative_to(ROOT))


if __name__ == "__main__":
    main()
