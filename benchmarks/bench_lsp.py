"""How long an editor waits for diagnostics after a keystroke.

    python benchmarks/bench_lsp.py [--ruleset hand-of-fate-ordeals] [--keys 40]

A real client (pygls) starts `rulelang lsp` and opens the ruleset (by
default the largest bundled one), then types: one key at a time into a
rule (a zone's name gets a letter, an error; the letter goes, the error
goes), each key sent when the diagnostics of the one before have come. Each
latency is from the change sent to the diagnostics of that version
received, the server's pause after a keystroke (its debounce, 75 ms)
included, as a user meets it. The goal: under 300 ms.

In the same run, for scale, on the same text:
  - the front end alone: reading and checking the text in this process
    (what the server does on a keystroke, without the protocol);
  - YAML alone: PyYAML's safe loading of the file (with libyaml), a floor
    every YAML tool pays;
  - the command line: `rulelang check FILE` in a fresh process (every
    number of players, every mode compiled), what a designer ran before.
Times are wall-clock medians (the machine may be loaded: compare within a run).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from langserver.server import DEBOUNCE
from queries.reading import read


async def keystrokes(path: Path, keys: int, written: str) -> list[float]:
    client = LanguageClient("bench", "1")
    published: dict[int, asyncio.Future] = {}

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(ls, params: lsp.PublishDiagnosticsParams):
        future = published.get(params.version)
        if future is not None and not future.done():
            future.set_result(time.perf_counter())

    await client.start_io(sys.executable, "-m", "cli", "lsp")
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    uri, text = path.as_uri(), path.read_text(encoding="utf-8")
    loop = asyncio.get_running_loop()
    published[1] = loop.create_future()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "yaml", 1, text)))
    await published[1]
    index = text.index(written) + len(written)
    line = text.count("\n", 0, index)
    where = lsp.Position(line, index - text.rfind("\n", 0, index) - 1)
    latencies = []
    cpu = server_cpu(client)
    for version in range(2, keys + 2):
        typing = version % 2 == 0  # a letter typed, then taken back
        change = lsp.TextDocumentContentChangePartial(
            lsp.Range(where, where if typing else lsp.Position(where.line, where.character + 1)), "x" if typing else "")
        published[version] = loop.create_future()
        sent = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=version, uri=uri), [change]))
        latencies.append(await published[version] - sent)
    cpu = (server_cpu(client) - cpu) / keys
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return latencies, cpu


def server_cpu(client: LanguageClient) -> float:
    """The CPU seconds the server process has used (Linux: /proc)."""
    fields = Path(f"/proc/{client._server.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def median_time(action, runs: int, clock=time.perf_counter) -> float:
    times = []
    for _ in range(runs):
        start = clock()
        action()
        times.append(clock() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="hand-of-fate-ordeals")
    parser.add_argument("--keys", type=int, default=40)
    parser.add_argument("--at", default="empty(hand", help="type after the first place this is written")
    args = parser.parse_args()
    source = ROOT / "rulesets" / f"{args.ruleset}.yaml"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / source.name
        path.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
        text = path.read_text(encoding="utf-8")
        latencies, cpu = asyncio.run(keystrokes(path, args.keys, args.at))
        front = median_time(lambda: read(text, str(path)), 10)
        front_cpu = median_time(lambda: read(text, str(path)), 10, time.process_time)
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml where there is: the fastest reading
        plain = median_time(lambda: yaml.load(text, Loader=loader), 10)
        plain_cpu = median_time(lambda: yaml.load(text, Loader=loader), 10, time.process_time)
        check = median_time(lambda: subprocess.run([sys.executable, "-m", "cli", "check", str(path)],
                                                   capture_output=True, check=True), 3)
    keys = sorted(latencies)
    median, p90 = statistics.median(keys), keys[int(0.9 * (len(keys) - 1))]
    print(f"{args.ruleset}: {len(text.splitlines())} lines, {args.keys} keystrokes")
    print(f"  keystroke -> diagnostics (debounce included): median {median * 1000:.0f} ms, "
          f"90th percentile {p90 * 1000:.0f} ms, slowest {keys[-1] * 1000:.0f} ms (goal: under 300 ms)")
    print(f"  server CPU per keystroke:                     {cpu * 1000:.0f} ms "
          f"(what the latency is on an idle machine, with the debounce: {(cpu + DEBOUNCE) * 1000:.0f} ms)")
    print(f"  front end alone (read and check, in process): {front * 1000:.0f} ms ({front_cpu * 1000:.0f} ms CPU)")
    print(f"  YAML alone (PyYAML's safe loader, libyaml):   {plain * 1000:.0f} ms ({plain_cpu * 1000:.0f} ms CPU; "
          f"server CPU per keystroke / this: {cpu / plain_cpu:.1f}x)")
    print(f"  rulelang check FILE (fresh process):          {check * 1000:.0f} ms "
          f"(this / keystroke: {check / median:.0f}x)")


if __name__ == "__main__":
    main()
