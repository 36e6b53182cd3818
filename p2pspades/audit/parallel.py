"""Proof checks of a log replay handed to worker processes, so that the offline verifier uses every core.

A version 2 log spends most of its verification time in the proofs of the deal (protocol/crypto.md §12-19):
each shuffle, lock and void proof is a pure function of bytes the log holds. `ParallelProofs` is a table's
`ProofRunner` that sends each check to a pool of worker processes and lets the replay go on as if it had
passed. The reader asks, after each entry, which entries are `settled` (every check of theirs passed), and
says what a log proves only up to there. If a check fails, or a worker dies, the reader replays the log again
from the start with every check run at once, so the verdict, the entry it names and its evidence are exactly
those of a serial replay (audit/reader.py).

Workers are forked (Linux only), before any thread of this module starts, from a process that runs no other
thread: elsewhere, or in a threaded program, `available_jobs` gives 1 and the replay stays serial.

Ctrl-C may come at any moment, also while the pool forks its workers and starts its thread (the first check)
or stops them (`close`). Those steps hold it back until they are done: an interrupt halfway would leave a
worker the pool does not know, or a thread it cannot join, and a traceback instead of the one-line message.
The pool's threads are started while it is held back, so they never take it: only the replay does.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from types import TracebackType

from p2pspades.table.deal import ProofCheck

#: The entry index `settled` gives when no check is pending.
ALL_SETTLED = sys.maxsize
#: Checks handed out and not settled, at the most (the replay waits for the workers beyond).
MAX_PENDING = 64
#: Seconds a wait for a check holds Ctrl-C back, at the most: it is taken between two waits.
WAIT_SLICE = 0.1


def available_jobs(requested: int | None = None) -> int:
    """How many worker processes a replay may use: `requested` (default: one per core), or 1 where forking
    is not safe (not Linux, or this process already runs other threads)."""
    jobs = requested if requested is not None else (os.cpu_count() or 1)
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if sys.platform != "linux" or threading.active_count() > 1:
        return 1
    return jobs


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Ctrl-C waits until the block is done, then is raised as usual (SIGINT blocked in this thread, and in
    every thread and process started within). Signals that came before are raised on entry, before the block
    runs: `pthread_sigmask` runs the handlers of what it unblocks, and of what was pending."""
    held = False  # already held back by our caller: leave it so
    try:
        held = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        yield
    finally:
        if not held:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is for the replay, which stops the pool; a worker finishes its check quietly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run(check: ProofCheck) -> bool:
    """In a worker: True if the check passes. Any failure is settled by the serial replay, which names it."""
    try:
        check()
    except Exception:
        return False
    return True


def worker_pool(jobs: int) -> concurrent.futures.ProcessPoolExecutor:
    """`jobs` forked worker processes that ignore Ctrl-C (the process that owns them stops them)."""
    context = multiprocessing.get_context("fork")
    return concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                                                  initializer=_ignore_interrupts)


def stop_pool(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Stop `pool`'s workers: the work not started is cancelled, the running work finishes, and a Ctrl-C
    meanwhile is raised once they have stopped. Waiting matters: a pool left to stop as the program exits
    has its threads write to pipes already closed, which Python reports on stderr after the last line."""
    with _interrupts_held():
        try:
            pool.shutdown(wait=True, cancel_futures=True)
        except RuntimeError:  # its thread never started (the first check failed): the workers wait
            for worker in list((pool._processes or {}).values()):
                worker.terminate()
                worker.join()


def _outcome(future: concurrent.futures.Future[bool]) -> bool:
    """The check's result, once it has one. A wait's lock changes hands where Ctrl-C would leave it released
    twice (a RuntimeError, not the one-line message), so the wait holds Ctrl-C back, WAIT_SLICE seconds at a
    time, and takes it between two waits."""
    while True:
        with _interrupts_held():
            try:
                return future.result(timeout=WAIT_SLICE)
            except concurrent.futures.TimeoutError:
                pass


class ParallelProofs:
    """A `ProofRunner` over `jobs` forked worker processes of its own, or over a caller's pool, which it
    leaves running (`review` weighs a seat's decisions on the workers that check the proofs). Set `entry` to
    the index of the entry being replayed before the table receives it; its checks are filed under it."""

    def __init__(self, jobs: int | concurrent.futures.Executor) -> None:
        self._owned = isinstance(jobs, int)
        self._pool = worker_pool(jobs) if isinstance(jobs, int) else jobs
        self._pending: deque[tuple[int, concurrent.futures.Future[bool]]] = deque()
        self.entry = 0
        #: the first entry one of whose checks failed (or could not run), once `settled` has seen it
        self.failed: int | None = None

    def __call__(self, check: ProofCheck) -> None:
        if self.failed is not None:
            return
        while len(self._pending) >= MAX_PENDING and self._settle_oldest(wait=True):
            pass  # the workers are behind: wait for them, so a long log never piles up in memory
        try:
            with _interrupts_held():  # the first one forks the workers and starts the pool's thread
                self._pending.append((self.entry, self._pool.submit(_run, check)))
        except (BrokenProcessPool, RuntimeError):
            self.failed = self.entry

    @property
    def pending(self) -> int:
        """How many checks are handed out and not settled yet."""
        return len(self._pending)

    def settled(self, wait: bool = False) -> int:
        """The index of the first entry with a check still running, or that failed (`failed` then says
        so), or ALL_SETTLED; with `wait`, waits for every check until one fails."""
        while self._pending and self._settle_oldest(wait):
            pass
        if self.failed is not None:
            return self.failed
        return self._pending[0][0] if self._pending else ALL_SETTLED

    def _settle_oldest(self, wait: bool) -> bool:
        """Settle the oldest pending check: True if it passed, False if it is still running (and not `wait`)
        or failed (then `failed` names its entry)."""
        if self.failed is not None:
            return False
        entry, future = self._pending[0]
        if not (wait or future.done()):
            return False
        try:
            passed = _outcome(future)
        except (BrokenProcessPool, concurrent.futures.CancelledError):
            passed = False
        if not passed:
            self.failed = entry
            return False
        self._pending.popleft()
        return True

    def close(self) -> None:
        """Stop the workers: the checks not started are cancelled, the running ones finish. A Ctrl-C meanwhile
        is raised once they have stopped. A caller's pool: its checks not started are cancelled, the running
        ones left to finish, and its workers to the caller."""
        pool = self._pool
        if not isinstance(pool, concurrent.futures.ProcessPoolExecutor) or not self._owned:
            for _entry, future in self._pending:
                future.cancel()
            return
        stop_pool(pool)

    def __enter__(self) -> ParallelProofs:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            self.close()
        except KeyboardInterrupt:  # raised before close held it back, the pool may still run: stop it
            self.close()
            raise
