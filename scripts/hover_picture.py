"""Draw docs/images/hover.png: the language server's hover, as VS Code shows it.

    python scripts/hover_picture.py [RULESET] [WRITTEN]

Asks the shared analysis (the language server's answers) for the hover on
the first place WRITTEN (default: `draw_action()` in the step Engage the
trial) is written in the ruleset, and for the colours of the lines around
it; lays them out as VS Code's dark theme does (the editor, the word
hovered, the hover's Markdown under it) in an HTML page, and screenshots it
with headless Chromium (Debian: chromium).
"""
from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from queries import analyse

# VS Code's Dark+ colours, by the semantic token kinds the server gives
COLOURS = {"keyword": "#c586c0", "number": "#b5cea8", "string": "#ce9178", "comment": "#6a9955",
           "operator": "#d4d4d4", "zone": "#4ec9b0", "card type": "#4ec9b0", "type": "#4ec9b0",
           "value": "#4fc1ff", "field": "#9cdcfe", "variable": "#9cdcfe", "parameter": "#4fc1ff",
           "local": "#9cdcfe", "define": "#dcdcaa", "procedure": "#dcdcaa", "built-in": "#dcdcaa",
           "role": "#4ec9b0", "die": "#4ec9b0", "event": "#4ec9b0"}
PAGE = """<!doctype html><meta charset="utf-8"><style>
body {{ margin: 0; background: #1e1e1e; font: 14px/19px Menlo, "DejaVu Sans Mono", monospace; color: #d4d4d4; }}
.editor {{ padding: 12px 0; }} .line {{ white-space: pre; height: 19px; }}
.no {{ display: inline-block; width: 44px; text-align: right; color: #858585; margin-right: 18px; }}
.key {{ color: #569cd6; }} .hovered {{ background: #264f78; }}
.hover {{ position: absolute; left: {left}px; top: {top}px; width: 640px; background: #252526;
  border: 1px solid #454545; color: #cccccc; padding: 4px 10px;
  font: 13px/19px -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; box-shadow: 0 2px 8px #000a; }}
.hover p {{ margin: 6px 0; }} .hover ul {{ margin: 4px 0; padding-left: 22px; }}
.hover hr {{ border: 0; border-top: 1px solid #454545; }} .hover code {{ font-family: monospace; color: #d7ba7d; }}
</style><div class="editor">{lines}</div><div class="hover">{hover}</div>"""


def inline(text: str) -> str:
    """The Markdown the hover uses, inline: code, bold, italics, escapes."""
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"(?<![\\*])\*(?!\s)(.+?)(?<![\s\\])\*", r"<i>\1</i>", out)
    return re.sub(r"\\(.)", r"\1", out)


def markdown(text: str) -> str:
    """Paragraphs, rules and nested lists (four spaces a level), as the hover writes them."""
    out, depth = [], 0
    for block in text.split("\n\n"):
        for line in block.split("\n"):
            item = re.match(r"( *)- (.*)", line)
            level = len(item.group(1)) // 4 + 1 if item else 0
            while depth < level:
                out.append("<ul>")
                depth += 1
            while depth > level:
                out.append("</ul>")
                depth -= 1
            if item:
                out.append(f"<li>{inline(item.group(2))}</li>")
            elif line.strip() == "---":
                out.append("<hr>")
            elif line.strip():
                out.append(f"<p>{inline(line)}</p>")
    return "\n".join(out + ["</ul>"] * depth)


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "twenty-trials"
    written = sys.argv[2] if len(sys.argv) > 2 else "use_refresh()"
    if shutil.which("chromium") is None:
        sys.exit("needs chromium (Debian: apt-get install chromium)")
    path = ROOT / "rulesets" / f"{name}.yaml"
    text = path.read_text(encoding="utf-8")
    index = text.index(written, text.index("step: Engage the trial"))
    line = text.count("\n", 0, index) + 1
    col = index - text.rfind("\n", 0, index)
    analysis = analyse(text, str(path))
    hovered = analysis.at(line, col + 1).place
    colours = {}
    for t in analysis.tokens():
        colours[(t.place.line, t.place.col)] = (t.place.end_col, COLOURS.get(t.kind, "#d4d4d4"))
    first, last = line - 6, line + 3
    rows = []
    for n in range(first, last + 1):
        source = analysis.text.lines[n - 1]
        cells, c = [], 1
        key = re.match(r"(\s*(?:- )?)([\w ]+)(:)", source)
        while c <= len(source):
            span = colours.get((n, c))
            if span is not None:
                piece, style = source[c - 1:span[0] - 1], f' style="color:{span[1]}"'
                extra = " hovered" if (n, c) == (hovered.line, hovered.col) else ""
                cells.append(f'<span class="tok{extra}"{style}>{html.escape(piece)}</span>')
                c = span[0]
            elif key and c == len(key.group(1)) + 1 and not source.strip().startswith("#"):
                cells.append(f'<span class="key">{html.escape(key.group(2))}</span>')
                c += len(key.group(2))
            else:
                cells.append(html.escape(source[c - 1]))
                c += 1
        rows.append(f'<div class="line"><span class="no">{n}</span>{"".join(cells)}</div>')
    said = analysis.hover(line, col + 1)
    page = PAGE.format(lines="\n".join(rows), hover=markdown(said), left=62 + 8.4 * (hovered.col - 1),
                       top=12 + 19 * (line - first + 1) + 2)
    out = ROOT / "docs" / "images" / "hover.png"
    with tempfile.TemporaryDirectory() as tmp:
        page_file = Path(tmp) / "hover.html"
        page_file.write_text(page, encoding="utf-8")
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--disable-background-networking", "--disable-component-update", "--no-first-run",
                        f"--user-data-dir={tmp}/profile", f"--screenshot={out}", "--window-size=960,375",
                        page_file.as_uri()], check=True, capture_output=True)
    print(out.relative_to(ROOT))


if __name__ == "__main__":
    main()
