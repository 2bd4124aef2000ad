"""The C64's 5-byte floating point: bytes and printed text measured on the real ROM.

The byte values were measured on VICE 3.10 running the C64 ROMs: a BASIC program
assigned each expression to X and printed PEEK of X's five bytes.  The printed
forms are the issue's facts, measured the same way.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolchain.basic import floats, tokenize_text
from toolchain.c64.run import Session, program_from_prg

# expression -> the five bytes of X after X=expression, on the real ROM
MEASURED_BYTES = {
    "log(2)": (128, 49, 114, 23, 248),
    "2^31": (160, 0, 0, 0, 0),
    "exp(1)": (130, 45, 248, 84, 89),
    "sqr(2)": (129, 53, 4, 243, 52),
    "sin(1)": (128, 87, 106, 164, 120),
    "31*log(2)": (133, 43, 230, 135, 56),
    "log(2)*31": (133, 43, 230, 135, 56),
    "1-sqr(2)/(.5+sqr(2)/2)": (126, 175, 176, 204, 192),
    "1/3": (127, 42, 170, 170, 171),
    "2/3*3": (130, 0, 0, 0, 0),
    ".1*.3": (123, 117, 194, 143, 92),
    "1/7+1/9": (127, 2, 8, 32, 130),
    "1.1-1/3": (128, 68, 68, 68, 69),
    "(1/3)*(2/7)": (125, 67, 12, 48, 195),
    "1.2*1.2": (129, 56, 81, 235, 133),
    "3.3": (130, 83, 51, 51, 51),
    "1.23456789e-5": (112, 79, 32, 73, 126),
    "7/3-1/3": (129, 127, 255, 255, 255),
    "1e-3": (119, 3, 18, 110, 152),
    ".5+1/3": (128, 85, 85, 85, 85),
    "5/7*(1/3)": (126, 115, 207, 60, 244),
    ".3-1/7": (126, 32, 234, 14, 162),
    "log(3)": (129, 12, 159, 83, 214),
    "exp(.5)": (129, 83, 9, 76, 113),
    # the multiply loop's zero-byte quirk: a real C64 prints 50331649.5
    "3*16777217": (154, 64, 0, 0, 96),
    "16777217*3": (154, 64, 0, 0, 192),
    "7*1090519041": (161, 99, 128, 0, 2),
    "1.00000001*3": (130, 64, 0, 0, 33),
}


def run_value(expression: str) -> float:
    session = Session(program_from_prg(tokenize_text(f"10 x={expression}\n"), expression))
    result = session.run()
    assert result.stop.exit_status == 0, result.message
    return session.runtime.value("X")


@pytest.mark.parametrize("expression", sorted(MEASURED_BYTES))
def test_bytes_measured_on_the_rom(expression: str) -> None:
    assert tuple(floats.to_bytes(run_value(expression))) == MEASURED_BYTES[expression]


@pytest.mark.parametrize(("expression", "printed"), [
    ("1/3", " .333333333"), ("2/3", " .666666667"), ("1e9", " 1E+09"), ("1e10", " 1E+10"),
    ("123456789", " 123456789"), ("1234567890", " 1.23456789E+09"), (".01", " .01"),
    ("1e-3", " 1E-03"), (".001234", " 1.234E-03"), ("-.5", "-.5"), ("10/3", " 3.33333333"),
    ("2^31", " 2.14748365E+09"), ("7", " 7"), ("0", " 0"), ("-0", " 0"),
    ("3*16777217", " 50331649.5"), ("999999999.6", " 1E+09"), ("1-.9", " .1"),
])
def test_printed_form(expression: str, printed: str) -> None:
    assert floats.format_number(run_value(expression)) == printed


def test_point_one_added_nine_times_prints_1_but_is_not_1() -> None:
    total = point_one = floats.parse_number(b".1")[0]
    for _ in range(9):
        total = floats.rounded(floats.add(total, point_one))
    assert floats.format_number(total) == " 1"
    assert total != 1.0
    assert floats.compare(total, 1.0) != 0


def test_rnd_sequence_after_negative_seed() -> None:
    random = floats.Random()
    values = [random.next(-1.0), random.next(1.0), random.next(1.0)]
    assert [floats.format_number(v) for v in values] == [" 2.99196472E-08", " .328780872",
                                                         " .978964086"]


def test_memory_format_round_trip() -> None:
    for value in (1.0, -1.0, 0.5, 1e38, 2.9e-39, 123456789.0, -0.001):
        stored = floats.rounded(value)
        assert floats.from_bytes(floats.to_bytes(stored)) == stored
    assert floats.to_bytes(0.0) == bytes(5)


def test_errors() -> None:
    with pytest.raises(floats.FloatError, match="DIVISION BY ZERO"):
        floats.divide(1.0, 0.0)
    with pytest.raises(floats.FloatError, match="OVERFLOW"):
        floats.multiply(1e38, 1e38)
    with pytest.raises(floats.FloatError, match="ILLEGAL QUANTITY"):
        floats.log(-1.0)
    with pytest.raises(floats.FloatError, match="ILLEGAL QUANTITY"):
        floats.to_integer(32768.0)
    assert floats.to_integer(-32768.0) == -32768
    assert floats.to_integer(-1.5) == -2
    with pytest.raises(floats.FloatError, match="OVERFLOW"):
        floats.parse_number(b"1E100")
    assert floats.parse_number(b"1E-100")[0] == 0.0


stored_integers = st.integers(-(2**31) + 1, 2**31 - 1).map(float)


@given(stored_integers, stored_integers)
def test_integer_fast_path_of_add_is_the_rom_routine(left: float, right: float) -> None:
    slow = floats.from_fac(floats._add(floats._memory(floats.to_fac(left)), floats.to_fac(right)))
    assert floats.add(left, right) == slow


@given(st.integers(-65535, 65535).map(float), st.integers(-16777215, 16777215).map(float))
def test_integer_fast_path_of_multiply_is_the_rom_routine(left: float, right: float) -> None:
    if abs(left * right) >= 2**32:
        return
    slow = floats.from_fac(floats._multiply(floats._memory(floats.to_fac(left)), floats.to_fac(right)))
    assert floats.multiply(left, right) == slow


@given(st.integers(-999999999, 999999999))
def test_integer_fast_path_of_printing_is_fout(number: int) -> None:
    assert floats.format_number(float(number)) == floats._format(float(number))
