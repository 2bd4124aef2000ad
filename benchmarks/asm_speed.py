"""Assembler speed: a generated 50,000-line program in the Profi-Ass dialect.

Prints lines per second (best of three).  Goal: 60,000 lines/s on one core.
Run: python benchmarks/asm_speed.py [LINES]
"""

from __future__ import annotations

import random
import sys
import time

from toolchain.asm import assemble

_TEMPLATES = [
    "lda #{imm}", "lda {zp}", "lda {zp},x", "lda {abs}", "lda {abs},x", "lda {abs},y",
    "lda ({zp},x)", "lda ({zp}),y", "sta {abs}", "stx {zp},y", "ldy #<{label}", "ldx #>{label}",
    "asl a", "rol", "inc {abs},x", "jsr {label}", "jmp ({abs})", "bne {near}", "beq {near}",
    "cmp #'a'", "adc #%00101010", "sbc {label}-{small}+1", "and #({small}*3+1)/2",
    "inx:iny:dex", ".byt {small},{imm},\"t\"", ".wor {label}", ".asc \"hi\"",
    "bit {zp} ; test bit", "cpx #{imm} : bcc {near}", "ora {abs}+{small}",
]


def generate(lines: int, seed: int = 1985) -> str:
    rng = random.Random(seed)
    out = ["100 sys9*4096", "110 .opt oo", "120 *= $0400", "130 zp1 = $fb", "140 io = $d020"]
    number = 140
    labels: list[str] = []
    while len(out) < lines:
        number += 1
        kind = rng.random()
        if kind < 0.40:  # comment lines, as common in magazine listings
            out.append(f"{number} ; {rng.choice(['schleife', 'zaehler', 'ausgabe'])} {number}")
            continue
        if kind < 0.50:
            out.append(f"{number} c{number} = {rng.randrange(65536)} ; konstante")
            continue
        label = f"l{number}" if rng.random() < 0.3 else ""
        template = rng.choice(_TEMPLATES)
        near = labels[-1] if labels and rng.random() < 0.5 else "*+4"
        text = template.format(imm=rng.randrange(256), zp=rng.choice(["zp1", "$fc", "2"]),
                               abs=rng.choice(["io", "$c000", "49152", labels[-1] if labels else "io"]),
                               label=rng.choice(labels) if labels else "io", near=near,
                               small=rng.randrange(1, 9))
        out.append(f"{number} {label} {text}".replace("  ", " "))
        if label:
            labels.append(label)
            labels = labels[-3:]  # keep branches in range
    return "\n".join(out) + "\n"


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    source = generate(count)
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        program = assemble(source, "generated.asm")
        best = min(best, time.process_time() - start)
    print(f"assembled {count} lines ({len(program.image)} bytes) in {best:.3f} s CPU: "
          f"{count / best:,.0f} lines/s (goal 60,000)")


if __name__ == "__main__":
    main()
