"""Ctrl-C at every step of a proof pool's life, as a program (it forks, and interrupts itself).

For each line that the pool's code runs, from its making through a first check and its result to its
closing (in audit/parallel.py, concurrent.futures, threading and multiprocessing), a replay is run again
and a real SIGINT is sent to this process when it reaches that line: no sleep, no luck. What escapes must be
the KeyboardInterrupt and nothing else, and it must escape (an interrupt is never lost); afterwards no
worker process or thread of that pool may be left, unless the interrupt came before the pool's `close` could
hold it back (then the interpreter's exit stops the pool, as it does for the program). Prints one line per
step that went wrong, then `steps N interrupted I left L` and the steps left to the exit."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from types import FrameType
from typing import Any

from p2pspades.audit.parallel import ParallelProofs


def passes() -> None:
    """A check that passes."""

#: The code a replay's Ctrl-C may land in, by the path of its file.
WATCHED = ("/concurrent/futures/", "/threading.py", "/multiprocessing/", "/p2pspades/audit/parallel.py")
#: Where a Ctrl-C may come before `close` holds it back (ParallelProofs.__exit__ is Python code too).
BEFORE_CLOSE = {"__exit__", "close", "_interrupts_held"}
ME = os.getpid()


class Interrupter:
    """A trace function that sends SIGINT at the `step`-th line it sees in the watched code (this process's
    main thread only: the forked workers inherit it and must not count)."""

    def __init__(self, step: int) -> None:
        self.step, self.seen, self.where = step, 0, ""

    def __call__(self, frame: FrameType, event: str, arg: Any) -> Any:
        if self.where or not any(part in frame.f_code.co_filename for part in WATCHED):
            return None
        return self.line

    def line(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line" and not self.where and os.getpid() == ME:
            self.seen += 1
            if self.seen == self.step:
                code = frame.f_code
                self.where = f"{code.co_filename.rsplit('/', 1)[-1]}:{frame.f_lineno} {code.co_name}"
                os.kill(ME, signal.SIGINT)  # raised here, before the line runs, unless it is held back
        return self.line


def replay(step: int) -> tuple[Interrupter, str]:
    """One check through a pool, interrupted at `step`; what escaped: "" or a KeyboardInterrupt, else its
    name and words."""
    interrupter = Interrupter(step)
    try:
        sys.settrace(interrupter)
        try:
            with ParallelProofs(1) as proofs:
                proofs(passes)
                proofs.settled(wait=True)
        finally:
            sys.settrace(None)
    except KeyboardInterrupt:
        return interrupter, "KeyboardInterrupt"
    except BaseException as error:  # what a person would see as a traceback
        return interrupter, f"{type(error).__name__}: {error}"
    return interrupter, ""


def main() -> int:
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even where the test runs as a background job
    replay(0)  # the modules a pool imports on its first use, imported whole (an interrupt stops an import)
    wrong, left, interrupted, step = 0, [], 0, 1
    while True:
        processes, threads = len(multiprocessing.active_children()), threading.active_count()
        interrupter, escaped = replay(step)
        if not interrupter.where:
            break  # past the last line: every step was tried
        stayed = (len(multiprocessing.active_children()) > processes, threading.active_count() > threads)
        if escaped != "KeyboardInterrupt":
            wrong += 1
            print(f"step {step} at {interrupter.where}: {escaped or 'the interrupt was lost'}", flush=True)
        elif any(stayed):
            left.append(interrupter.where)
            if interrupter.where.rsplit(" ", 1)[-1] not in BEFORE_CLOSE:
                wrong += 1
                print(f"step {step} at {interrupter.where}: the pool stayed {stayed}", flush=True)
        interrupted += escaped == "KeyboardInterrupt"
        step += 1
    print(f"steps {step - 1} interrupted {interrupted} left {len(left)}: {left}", flush=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
