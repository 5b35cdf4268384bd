"""Where chunks of games are played: in this process, in local worker
processes, or on a Dask cluster — behind one small interface.

    backend.run(setups, chunks)  ->  (chunk, its results) for each chunk, in the order of `chunks`
    backend.close()

Results come back in the order the chunks were given, whatever finished
first, so what a caller writes and counts does not depend on the backend or
the number of workers. A few chunks per worker are in flight at a time (a
window), so memory stays bounded however long the run.

A worker that dies — killed, out of memory, an agent that calls `os._exit` —
never leaves the caller waiting: every chunk it may have been playing is
played again alone, in a fresh process of its own on this machine (its
results are the same wherever it is played). A chunk that dies again alone
is what kills its worker, and the run stops with `WorkerDied`, naming the
configuration and the seeds; one that finishes was a bystander, or the
death was passing (a kill, memory pressure), and the run goes on. So each
chunk is retried at most once, and the error names the right chunk even
when several were running. Dask first retries on its own (its scheduler's
`allowed-failures`; 0 on a `--dask local` cluster, so the retry is ours).
"""
from __future__ import annotations

import gc
import os
import pickle
import signal
import sys
import threading
import time
from collections import deque
from typing import Iterable, Iterator, Sequence

from rulelang.errors import Crosses

from .work import Chunk, Setup, play_chunk

WINDOW = 4  # chunks in flight per worker

# multiprocessing, concurrent.futures, logging, ctypes and socket are imported where workers are
# started: a simulation in this process alone (`--jobs 1`) is spared their 30 ms of start-up


class BackendError(Crosses, Exception):
    """The workers could not play the games (exit code 1)."""


class WorkerDied(BackendError):
    def __init__(self, setup: Setup, chunk: Chunk, how: str):
        what = f"{setup.label}, " if setup.label else ""
        super().__init__(
            f"a worker process died playing {what}{chunk.describe()}, and died again ({how}) when that chunk "
            "was played alone: something in these games ends the process — an agent that calls os._exit or "
            "crashes Python, or more memory than the machine has (the out-of-memory killer)")
        self.chunk = chunk


MOST_GAMES_A_CHUNK = 200  # a fraction of a second of play: rows, progress and Ctrl-C never wait long


def chunk_size(games: int, configurations: int, workers: int) -> int:
    """Games per chunk: about eight chunks per worker over the whole run (few
    enough that shipping them costs little, enough to keep every worker busy
    to the end), at most a configuration's games, so that a configuration
    is compiled by as few workers as possible, and at most MOST_GAMES_A_CHUNK,
    since a chunk's rows are written only when the chunks before it are done."""
    return max(1, min(games, MOST_GAMES_A_CHUNK, -(-games * configurations // (8 * workers))))


def _context():
    """fork where there is one: workers inherit the compiled games, with nothing to rebuild."""
    import multiprocessing
    return multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")


class InProcess:
    """One worker: this process."""
    workers = 1

    def run(self, setups: Sequence[Setup], chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, list]]:
        for chunk in chunks:
            yield chunk, play_chunk(setups[chunk.config], chunk)

    def close(self) -> None:
        pass


class Processes:
    """Local worker processes (`--jobs J`), through ProcessPoolExecutor."""

    def __init__(self, workers: int):
        self.workers, self.context = workers, _context()

    def run(self, setups: Sequence[Setup], chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, list]]:
        import shutil
        import tempfile  # (these, and the pool's, only where there are workers: 13M instructions)
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool
        todo = deque(chunks)
        while todo:
            if self.context.get_start_method() == "fork":
                gc.freeze()  # the collector leaves inherited objects alone, so their pages stay shared
            stop = self.context.RawValue("b", 0)
            spool = tempfile.mkdtemp(prefix="rulelang-chunks-")
            pool = ProcessPoolExecutor(self.workers, self.context, initializer=_start_worker,
                                       initargs=(setups, stop, spool, os.getpid()))
            inflight: deque = deque()
            try:
                while todo or inflight:
                    while todo and len(inflight) < WINDOW * self.workers:
                        future = pool.submit(_play_indexed, todo[0])  # raises if the pool broke: keep the chunk
                        inflight.append((todo.popleft(), future))
                    results = _unspooled(inflight[0][1].result())
                    yield inflight.popleft()[0], results
            except BrokenProcessPool:  # a worker died: every chunk in flight is a suspect
                played = {c: _unspooled(f.result()) for c, f in inflight if f.done() and not f.exception()}
                suspects = [c for c, _ in inflight if c not in played]
                again = iter(alone(setups, suspects, self.context))
                _retried(setups, suspects)
                for chunk, _ in inflight:
                    yield chunk, played[chunk] if chunk in played else next(again)
            finally:
                # stopped early (an error, Ctrl-C): the workers end their chunks after the game in hand, so
                # the shutdown waits for one game, not a chunk (ProcessPoolExecutor cannot kill its workers)
                stop.value = 1
                pool.shutdown(cancel_futures=True)
                shutil.rmtree(spool, ignore_errors=True)
                gc.unfreeze()

    def close(self) -> None:
        pass


_setups: Sequence[Setup] = ()
_stop = _spool = None


def _own_signals(parent: int) -> None:
    """A worker's signals: Ctrl-C is the parent's to handle, and SIGTERM ends
    it (not the handler a forked worker inherits from the command, which
    stops as Ctrl-C does: this process is ended with it when it is not wanted).
    And it dies with its parent (`parent`, its process id), however the
    parent ends: a worker left behind plays on for nothing."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if not _killed_with_parent():
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # it died before we asked
        os._exit(1)


def _killed_with_parent() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies (prctl PR_SET_PDEATHSIG)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(1, signal.SIGKILL, 0, 0, 0) == 0  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    """Where the kernel cannot do it: look for the parent every second, and end once it is gone."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def _start_worker(setups: Sequence[Setup], stop, spool: str, parent: int) -> None:
    global _setups, _stop, _spool
    _own_signals(parent)
    _setups, _stop, _spool = setups, stop, spool


def _play_indexed(chunk: Chunk) -> str:
    """Plays the chunk and answers where its results are. The results go
    through a file so that the answer in the pool's pipe is a few bytes, sent
    with one write that a kill cannot cut in half: a message cut in half
    leaves ProcessPoolExecutor waiting for its end for ever."""
    path = os.path.join(_spool, f"{chunk.config}-{chunk.start}")
    with open(path, "wb") as f:
        pickle.dump(play_chunk(_setups[chunk.config], chunk, _stop), f, pickle.HIGHEST_PROTOCOL)
    return path


def _unspooled(path: str) -> list:
    with open(path, "rb") as f:
        results = pickle.load(f)
    os.remove(path)
    return results


def alone(setups: Sequence[Setup], chunks: list[Chunk], context=None) -> list[list]:
    """Play each chunk in a fresh process of its own (all at once); their
    results in order, or WorkerDied for the first whose process died."""
    context = context or _context()
    started = []
    for chunk in chunks:
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=_play_alone, args=(setups[chunk.config], chunk, send, os.getpid()),
                                  daemon=True)
        process.start()
        send.close()
        started.append((chunk, process, receive))
    try:
        results = []
        for chunk, process, receive in started:
            try:
                result = receive.recv()
            except EOFError:  # it died before it could send anything
                process.join()
                raise WorkerDied(setups[chunk.config], chunk, _how(process.exitcode)) from None
            process.join()
            if isinstance(result, BaseException):  # a bug in rulelang, raised in the child
                raise result
            results.append(result)
        return results
    finally:
        for _, process, receive in started:
            receive.close()
            if process.is_alive():
                process.terminate()
                process.join()


def _retried(setups: Sequence[Setup], chunks: list[Chunk]) -> None:
    what = "; ".join(f"{setups[c.config].label + ', ' if setups[c.config].label else ''}{c.describe()}" for c in chunks)
    import logging  # unconfigured, a warning goes to stderr as it is
    logging.getLogger(__name__).warning("rulelang: a worker process died; the games it may have been playing (%s) "
                                        "were played again, each chunk alone, and finished", what)


def _play_alone(setup: Setup, chunk: Chunk, send, parent: int) -> None:
    _own_signals(parent)
    try:
        result = play_chunk(setup, chunk)
    except Exception as exc:
        result = exc
    send.send(result)
    send.close()


def _how(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"killed by {name}" + (", as the out-of-memory killer does" if name == "SIGKILL" else "")
    return f"exit code {exitcode}"


# ------------------------------------------------------------------ Dask


class DaskMissing(BackendError):
    pass


def _distributed():
    try:
        import distributed
    except ImportError:
        raise DaskMissing("--dask and --scheduler need Dask, the optional extra `dask`: "
                          "pip install 'rulelang[dask]' (from a checkout: pip install '.[dask]')") from None
    return distributed


def _knock(address: str) -> None:
    """A TCP scheduler that is not there is said at once (Dask's client tries again for seconds)."""
    scheme, _, rest = address.rpartition("://")
    host, _, port = rest.rpartition(":")
    if scheme in ("", "tcp") and port.isdigit():
        import socket
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
        except OSError as exc:
            raise BackendError(f"cannot reach the Dask scheduler at {address}: "
                               f"{exc.strerror or exc} (is `dask scheduler` running there?)") from None


def _same(setup: Setup) -> Setup:
    return setup


class Dask:
    """A Dask cluster: a `LocalCluster` of `workers` processes (`--dask local`)
    or the scheduler at `address` (`--scheduler tcp://host:8786`). Its
    workers need rulelang installed, and the files of `--agents-from` at the
    same paths. A cluster without a worker for `patience` seconds is an error."""

    # Dask's own chatter when workers go ("Couldn't gather keys, rescheduling"; an AllExit traceback from
    # a task no one awaited once the last worker is gone): what happened is ours to say, once, plainly
    QUIET = ("distributed", "asyncio")

    def __init__(self, address: str | None = None, workers: int = 1, patience: float = 60.0):
        distributed = _distributed()
        import logging

        import dask
        names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in self.QUIET] + list(self.QUIET)
        self.levels = {name: logging.getLogger(name).level for name in names}  # Dask sets its loggers' own levels
        for name in self.levels:
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)
        try:
            self._connect(distributed, dask, address, workers, patience)
        except BaseException:
            self._restore()
            raise

    def _connect(self, distributed, dask, address: str | None, workers: int, patience: float) -> None:
        import logging
        self.patience, self.cluster = patience, None
        if address is None:
            # its scheduler runs in this process, so it takes this setting: no retry of its own
            with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
                self.cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                        dashboard_address=None, silence_logs=logging.CRITICAL)
            self.client = distributed.Client(self.cluster)
        else:
            _knock(address)
            try:
                self.client = distributed.Client(address, timeout=10)
            except (OSError, TimeoutError) as exc:
                raise BackendError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        self.address = address or "a local cluster"
        self.workers = max(1, sum(self._threads().values()))
        self.KilledWorker = distributed.KilledWorker

    def _threads(self) -> dict:
        try:
            return self.client.nthreads()
        except (OSError, TimeoutError) as exc:
            raise BackendError(f"lost the Dask scheduler at {self.address}: {exc}") from None

    def run(self, setups: Sequence[Setup], chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, list]]:
        todo, inflight, shipped = iter(chunks), deque(), {}
        try:
            while True:
                for chunk in todo:
                    if chunk.config not in shipped:
                        # each setup travels once, as a task the chunks depend on (not scattered data,
                        # which a lost worker would take with it: a task's result can be made again)
                        shipped = {chunk.config: self.client.submit(_same, setups[chunk.config], pure=False)}
                    inflight.append((chunk, self.client.submit(play_chunk, shipped[chunk.config], chunk,
                                                               pure=False)))
                    if len(inflight) >= WINDOW * self.workers:
                        break
                if not inflight:
                    return
                chunk, future = inflight.popleft()
                try:
                    results = self._result(future)
                except self.KilledWorker:  # its workers died: ours to retry, alone
                    import multiprocessing
                    results = alone(setups, [chunk], multiprocessing.get_context("spawn"))[0]
                    _retried(setups, [chunk])
                yield chunk, results
        finally:
            for _, future in inflight:
                future.cancel()

    def _result(self, future) -> list:
        """The future's result; an error, not a hang, once the cluster has had no worker for `patience` s."""
        alone_since = None
        while True:
            try:
                return future.result(timeout=1)
            except TimeoutError:
                if self._threads():
                    alone_since = None
                elif alone_since is None:
                    alone_since = time.monotonic()
                elif time.monotonic() - alone_since > self.patience:
                    raise BackendError(f"the Dask cluster ({self.address}) has had no worker for "
                                       f"{self.patience:.0f} s; start workers, or use local processes (--jobs)")

    def close(self) -> None:
        try:
            self.client.close()
            if self.cluster is not None:
                self.cluster.close()
            gc.collect()  # the tasks no one awaited go now, their complaints unsaid
        finally:
            self._restore()

    def _restore(self) -> None:
        import logging
        for name, level in self.levels.items():
            logging.getLogger(name).setLevel(level)
