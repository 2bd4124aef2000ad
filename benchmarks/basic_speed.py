"""BASIC runner speed: the Haus vom Nikolaus with the erratum (2,244,444 passes of the
main loop, 44 solutions).

cbmbasic, the C64 BASIC ROM recompiled to native C, takes about 50 s of CPU for this
run on this machine class; the goal is at most half of that, 25 s.  Also prints a
compile-time figure (tokenized program -> Python segments) for the longest corpus
listing when ../shared is there.  Run: python benchmarks/basic_speed.py
"""

from __future__ import annotations

import time
from pathlib import Path

from toolchain.basic import tokenize
from toolchain.basic.runner import RunStop, Runtime
from toolchain.c64.machine import C64
from toolchain.verify import nikolaus

REPO = Path(__file__).resolve().parent.parent
PASSES = nikolaus.ERRATUM_END - 2311111 + 1
CBMBASIC_SECONDS = 50.0


def main() -> None:
    sources = [(name, (REPO / "sources" / name).read_text())
               for name in ("nikolaus.bas", "nikolaus-errata.bas")]
    prg = tokenize(sources)[0]
    start = time.process_time()
    runtime = Runtime(prg.data, C64())
    compiled = time.process_time() - start
    result = runtime.run()
    seconds = time.process_time() - start
    solutions = sum(line.startswith("LOESUNG") for line in runtime.machine.screen.transcript().splitlines())
    assert result.stop is RunStop.END and solutions == 44, (result, solutions)
    print(f"Nikolaus (erratum): {PASSES:,} passes, {solutions} solutions, "
          f"{result.statements:,} statement groups")
    print(f"  compile {compiled * 1000:.1f} ms, total {seconds:.1f} s CPU "
          f"({PASSES / seconds:,.0f} passes/s)")
    print(f"  cbmbasic about {CBMBASIC_SECONDS:.0f} s: {CBMBASIC_SECONDS / seconds:.1f}x as fast; "
          f"goal 25 s: {'met' if seconds <= 25 else 'NOT met'}")

    corpus = REPO.parent / "shared" / "corpus"
    basic = corpus / "basic"
    listings = sorted(basic.glob("*.txt"), key=lambda path: path.stat().st_size) if basic.is_dir() else []
    if listings:
        biggest = listings[-1]
        prg = tokenize([(str(biggest), biggest.read_text(errors="replace"))])[0]
        start = time.process_time()
        runtime = Runtime(prg.data, C64())
        print(f"compile {biggest.name} ({len(prg.data):,} bytes, {len(runtime.segments)} segments): "
              f"{(time.process_time() - start) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
