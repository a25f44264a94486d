# SPDX-License-Identifier: GPL-3.0-or-later
# The GIL is released while the engine integrates: Python code runs meanwhile, and a second run
# on another thread goes on while the first integrates; many threads making their first runs at
# once in a fresh interpreter all finish; Ctrl+C stops a long run or sweep.
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from conftest import nl

SYSTEM = "whipple_bicycle"
T_END = 500  # about half a second on an idle machine


def one_run():
    return nl.load(SYSTEM).run(T_END, dt_out=0.01, init={"v": 4.6, "lean_rate": 0.1},
                               rtol=1e-12, atol=1e-12)


def test_python_runs_while_the_engine_integrates():
    one_run()  # compiled once before timing
    done = threading.Event()
    worker = threading.Thread(target=lambda: (one_run(), done.set()))
    worker.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    # A run that held the GIL would leave this thread no turn at all until it ended.
    assert ticks >= 50, ticks


def test_a_second_run_goes_on_while_the_first_integrates():
    # A long run on a thread; once it has begun, this thread runs a short one to its end and
    # finds the long one still going. A run that held the GIL, or a lock of the engine held for
    # a whole run, would keep this thread waiting until the long run had ended. No timing ratio:
    # two processes sharing the cores in a loaded test run must not make this fail.
    one_run()
    entered, done = threading.Event(), threading.Event()

    def long_run():
        entered.set()
        nl.load(SYSTEM).run(4 * T_END, dt_out=1, init={"v": 4.6, "lean_rate": 0.1},
                            rtol=1e-12, atol=1e-12)
        done.set()

    worker = threading.Thread(target=long_run)
    worker.start()
    entered.wait()
    time.sleep(0.05)  # the worker is inside the engine by now, or holds the GIL until it ends
    short = nl.load(SYSTEM).run(5, dt_out=0.5, init={"v": 4.6})
    second_ended_first = not done.is_set()
    worker.join()
    assert len(short) == 11
    assert second_ended_first


# A fresh interpreter (NumPy not imported yet) where 16 threads, released together, each load a
# system and make their first run; it prints how many runs ended.
FIRST_RUNS_AT_ONCE = """
import threading
import nonholonomic_lab as nl

names = ["chaplygin_sleigh", "nh_particle"]
start = threading.Barrier(16)
ended = []

def first_run(i):
    system = nl.load(names[i % 2])
    start.wait()
    ended.append(len(system.run(0.5, dt_out=0.1)))

threads = [threading.Thread(target=first_run, args=(i,)) for i in range(16)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(len(ended), sorted(set(ended)))
"""


def test_sixteen_threads_making_their_first_runs_at_once_all_finish():
    # Each run ends by building its NumPy arrays; the first of them, in a process where NumPy
    # was not yet set up, used to import NumPy while other threads, holding the GIL, waited for
    # that import to finish: the process hung. Up to 60 s for 16 runs of half a second of a
    # small system, each a few milliseconds, on a loaded machine.
    try:
        done = subprocess.run([sys.executable, "-c", FIRST_RUNS_AT_ONCE], capture_output=True,
                              text=True, timeout=60, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail("16 threads making their first runs at once did not finish in 60 s")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["16", "[6]"]


def interrupt_in(seconds):
    """SIGINT to this process after `seconds`, as Ctrl+C or a notebook's interrupt sends."""
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def test_ctrl_c_stops_a_long_run_and_a_long_sweep():
    bicycle = nl.load(SYSTEM)
    for call in [
        lambda: bicycle.run(1e6, dt_out=1, init={"v": 4.6}, rtol=1e-12, atol=1e-12,
                            max_steps=10**12),
        lambda: bicycle.sweep(vary={"v": (3, 6, 400)}, measures="max(abs(lean))", t_end=1000,
                              jobs=2),
    ]:
        start = time.perf_counter()
        interrupt_in(0.5)
        with pytest.raises(KeyboardInterrupt):
            call()
        assert time.perf_counter() - start < 30
    assert len(bicycle.run(1, dt_out=0.5)) == 3  # and the engine is ready for more
