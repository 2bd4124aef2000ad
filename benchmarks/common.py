"""What the three benchmarks share: the command line, machine facts, timing of child
processes, medians, and the cProfile summary.

The benchmarks run their peer beside c64tc in the same run, alternating c64tc and the
peer repeat by repeat, and report medians: on a shared machine the absolute seconds
drift by a factor of two between minutes, the ratio measured side by side much less.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import resource
import statistics
import subprocess
import sysconfig
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

REPO = Path(__file__).resolve().parent.parent
T = TypeVar("T")


def arguments(description: str, default_repeat: int,
              extra: Callable[[argparse.ArgumentParser], None] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--repeat", type=int, default=default_repeat,
                        help=f"runs of each side; the medians are reported (default {default_repeat})")
    parser.add_argument("--profile", action="store_true",
                        help="also run c64tc's side once under cProfile and print the top 15 functions")
    if extra is not None:
        extra(parser)
    options = parser.parse_args()
    if options.repeat < 1:
        parser.error("--repeat must be at least 1")
    return options


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load_average() -> str:
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def print_machine() -> None:
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores ({usable} usable); "
          f"Python {platform.python_version()} ({platform.python_implementation()}); "
          f"load average {load_average()} (1, 5, 15 min)")


def child_cpu_seconds(command: Sequence[str],
                      **kwargs: object) -> tuple[subprocess.CompletedProcess[bytes], float]:
    """Run ``command`` to its end; its user + system CPU time (from the kernel's
    accounting of waited-for children, so the time of this process is not in it)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, check=False, **kwargs)  # type: ignore[call-overload]
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done, seconds


def cpu_seconds(work: Callable[[], T]) -> tuple[T, float]:
    """``work()`` and the CPU time this process spent on it."""
    start = time.process_time()
    result = work()
    return result, time.process_time() - start


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def runs(values: Sequence[float], unit: str = "s", scale: float = 1.0, digits: int = 3) -> str:
    """``1.234 s (runs 1.2, 1.3, 1.234)``: the median and every run."""
    each = ", ".join(f"{value * scale:.{digits}g}" for value in values)
    return f"{median(values) * scale:.{digits}g} {unit} (runs {each})"


def rate(value: float, unit: str) -> str:
    """3,456,789 -> '3.46 M unit'; 45,600 -> '45,600 unit'."""
    if value >= 1e6:
        return f"{value / 1e6:.2f} M {unit}"
    return f"{value:,.0f} {unit}"


def profile(work: Callable[[], object], top: int = 15) -> str:
    """Run ``work`` under cProfile; the ``top`` functions by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        work()
    finally:
        profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    # keep the summary line and the table, drop pstats' blank lines and long paths
    lines = [line.rstrip() for line in out.getvalue().splitlines() if line.strip()]
    for prefix in (str(REPO) + "/", sysconfig.get_paths()["purelib"] + "/"):
        lines = [line.replace(prefix, "") for line in lines]
    return "\n".join(lines)


def print_profile(title: str, work: Callable[[], object], annotate: Callable[[str], str] = str) -> None:
    """Print the profile of ``work``, each line passed through ``annotate``."""
    print(f"\nprofile of c64tc, {title} (cProfile, by own time; cProfile adds a cost to every "
          "Python function call, so code that calls many small functions looks slower than it is):")
    print("\n".join(annotate(line) for line in profile(work).splitlines()))
