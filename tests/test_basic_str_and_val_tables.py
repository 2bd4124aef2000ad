"""The tables behind STR$ of a whole number and VAL of one character, which generated
code reads in Nikolaus's every pass: they give what the general ways give."""

from __future__ import annotations

import math

import pytest

from toolchain.basic import tokenize_text
from toolchain.basic.runner import compile_program, costs
from toolchain.basic.runner.io import CLOCK, install_fout
from toolchain.basic.runner.values import VAL_OF_CHARACTERS, VAL_OF_CHARACTERS_ROUNDED, Values

# the edges of the tables: each number of digits, and of the digits before the last five
WHOLES = sorted({whole for power in range(10) for base in (10**power, 7 * 10**power, 99_999 * 10**power)
                 for whole in (base - 1, base, base + 1) if 0 < whole < 10**9}
                | {high * 100_000 + low for high in (1, 9, 10, 99, 100, 999, 1000, 9999)
                   for low in (0, 1, 50_505, 99_999)} | {2_311_111, 4_555_554, 5_535_554})


@pytest.mark.parametrize("whole", WHOLES)
def test_str_of_a_whole_number_takes_the_time_of_its_digits(whole: int) -> None:
    namespace: dict[str, object] = {CLOCK: 0}
    install_fout(namespace)
    expected = costs.whole_fout_cycles(whole, len(str(whole)))
    for function, text in (("_fout_digits", str(whole)), ("_fout_text", f" {whole}")):
        namespace[CLOCK] = 0
        assert namespace[function](float(whole)) == text  # type: ignore[operator]
        assert namespace[CLOCK] == expected == costs.fout_cycles(float(whole))


def test_val_of_a_character_is_values() -> None:
    for text in ("", *map(chr, range(256))):
        for table, rounded in ((VAL_OF_CHARACTERS, False), (VAL_OF_CHARACTERS_ROUNDED, True)):
            value, expected = table[text], Values(rounded)[text]
            assert value == expected and math.copysign(1.0, value) == math.copysign(1.0, expected), text


@pytest.mark.parametrize(("listing", "table"), [
    ('10 k(1)=val(mid$(k$,i,1))', "_VAL1R["),
    ('10 a=val(mid$(k$,3,1))', "_VAL1R["),
    ('10 a=val(left$(k$,1))', "_VAL1R["),
    ('10 print val(mid$(k$,i,1))', "_VAL1["),
    ('10 a=val(mid$(k$,i,2))', "_VALR["),
    ('10 a=val(mid$(k$,2,2))', "_VALR["),
    ('10 a=val(left$(k$,2))', "_VALR["),
    ('10 a=val(k$)', "_VALR["),
])
def test_val_reads_the_table_of_characters_where_the_text_is_one(listing: str, table: str) -> None:
    source = compile_program(tokenize_text(listing + "\n").data).module.source
    assert table in source, source
    if table == "_VALR[":
        assert "_VAL1" not in source
