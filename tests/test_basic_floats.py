"""The C64's 5-byte floating point: bytes and printed text measured on the real ROM.

The byte values were measured on VICE 3.10 running the C64 ROMs: a BASIC program
assigned each expression to X and printed PEEK of X's five bytes.  The printed
forms are the issue's facts, measured the same way.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
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


# operands that meet the add's fast path or come close to it: integers, big integers
# (their differences can lie in the rounding byte), numbers a bit off an integer
near_integers = st.one_of(
    stored_integers, st.integers(-(2**40), 2**40).map(float),
    st.builds(lambda whole, exponent, mantissa: whole + floats.from_fac((exponent, False, mantissa)),
              st.integers(-(2**32), 2**32), st.integers(80, 135), st.integers(2**39, 2**40 - 1)))


@given(near_integers, near_integers)
def test_fast_path_of_add_is_the_rom_routine(left: float, right: float) -> None:
    left = floats.rounded(left)
    right = floats.from_fac(floats.to_fac(right))  # the FAC keeps 40 bits
    slow = floats.from_fac(floats._add(floats._memory(floats.to_fac(left)), floats.to_fac(right)))
    assert floats.add(left, right) == slow
    slow = floats.from_fac(floats._add(floats._memory(floats.to_fac(left)),
                                       floats._negate(floats.to_fac(right))))
    assert floats.subtract(left, right) == slow


def test_fast_path_of_add_keeps_to_the_rom() -> None:
    """Results of FADD ($B867) measured on the ROM: an inexact double sum rounds to
    an integer the C64 does not reach; a difference in the rounding byte alone is 0."""
    assert floats.add(1520319949.0, 2 - 2**-31) == 1520319950.998046875
    assert floats.add(-4294967295.0, 4294967296.0) == 0.0
    assert floats.subtract(4294967296.0, 4294967295.0) == 0.0
    assert floats.add(1e10, -9999999998.0) == 0.0


@given(st.integers(-65535, 65535).map(float), st.integers(-16777215, 16777215).map(float))
def test_integer_fast_path_of_multiply_is_the_rom_routine(left: float, right: float) -> None:
    if abs(left * right) >= 2**32:
        return
    slow = floats.from_fac(floats._multiply(floats._memory(floats.to_fac(left)), floats.to_fac(right)))
    assert floats.multiply(left, right) == slow


@given(st.integers(-999999999, 999999999))
def test_integer_fast_path_of_printing_is_fout(number: int) -> None:
    assert floats.format_number(float(number)) == floats._format(float(number))

# -- the edges of the C64's range ----------------------------------------------------------------
# Measured against the real ROM routines (BASIC 901226-01 on the project's 6502 core;
# tests/test_floats_rom.py re-measures every row when the ROMs are there), and the ones
# marked VICE also as PRINT on VICE 3.10.  Each row: the operation, its operands as text
# read by FIN (for an operator the left one stored, as the expression evaluator pushes
# it), and what the ROM gives: the result as FOUT prints it and as it is stored (5 bytes),
# or the error it stops with.
Outcome = str | tuple[str, str]

EDGE_FACTS: list[tuple[str, tuple[str, ...], Outcome]] = [
    ('FIN', ('3E-39',), (' 3.00000001E-39', '01 02 ab 1e 2a')),  # VICE
    ('FIN', ('-3E-39',), ('-3.00000001E-39', '01 82 ab 1e 2a')),  # VICE
    ('FIN', ('2.93873588E-39',), (' 2.93873588E-39', '01 00 00 00 00')),
    ('FIN', ('2.93873587E-39',), (' 0', '00 00 00 00 00')),
    ('FIN', ('2E-39',), (' 0', '00 00 00 00 00')),  # VICE
    ('FIN', ('1E-40',), (' 0', '00 00 00 00 00')),
    ('FIN', ('1E-100',), (' 0', '00 00 00 00 00')),
    ('FIN', ('1E38',), (' 1E+38', 'ff 16 76 99 53')),
    ('FIN', ('1.70141183E38',), (' 1.70141183E+38', 'ff 7f ff ff f8')),
    ('FIN', ('1.70141183455E38',), (' 1.70141183E+38', 'ff 7f ff ff ff')),
    ('FIN', ('1.7014118346E38',), 'OVERFLOW'),  # VICE
    ('FIN', ('1E39',), 'OVERFLOW'),  # VICE
    ('FIN', ('-1E39',), 'OVERFLOW'),
    ('FIN', ('1E100',), 'OVERFLOW'),
    ('FIN', ('0E100',), 'OVERFLOW'),
    ('FIN', ('100000000000000000000000000000000000000',), (' 1E+38', 'ff 16 76 99 53')),
    ('FIN', ('1000000000000000000000000000000000000000',), 'OVERFLOW'),
    # FIN's scale is a byte: -99 - 30 digits after the point wraps to +127
    ('FIN', ('.00000000000000000000000000001E-99',), (' 0', '00 00 00 00 00')),
    ('FIN', ('.000000000000000000000000000001E-99',), 'OVERFLOW'),  # VICE
    ('FIN', ('999999999',), (' 999999999', '9e 6e 6b 27 fc')),
    ('FIN', ('1E9',), (' 1E+09', '9e 6e 6b 28 00')),
    ('FIN', ('999999999.5',), (' 1E+09', '9e 6e 6b 27 fe')),
    ('FIN', ('.01',), (' .01', '7a 23 d7 0a 3e')),
    ('FIN', ('.0099999999',), (' 9.9999999E-03', '7a 23 d7 0a 22')),
    ('FIN', ('1E-10',), (' 1E-10', '5f 5b e6 fe d0')),
    ('*', ('1E38', '10'), 'OVERFLOW'),  # VICE
    ('*', ('1E38', '1.7'), 'OVERFLOW'),
    ('*', ('1E-20', '1E-19'), (' 0', '00 00 00 00 00')),  # VICE
    ('*', ('1E-20', '1E-18'), (' 1E-38', '02 59 c7 dc ee')),
    ('*', ('-2.93873588E-39', '.5'), (' 0', '00 00 00 00 00')),  # VICE
    ('+', ('1.70141183E38', '1E30'), 'OVERFLOW'),  # VICE
    ('+', ('1.7E38', '1.7E38'), 'OVERFLOW'),
    ('-', ('-1.7E38', '1.7E38'), 'OVERFLOW'),
    ('+', ('1.70141183E38', '1E29'), (' 1.70141183E+38', 'ff 7f ff ff fb')),
    # a difference that lies in the rounding byte alone normalizes to 0
    ('+', ('-4294967295', '4294967296'), (' 0', '00 00 00 00 00')),  # VICE
    ('-', ('4294967296', '4294967295'), (' 0', '00 00 00 00 00')),  # VICE
    ('-', ('1E10', '9999999998'), (' 0', '00 00 00 00 00')),  # VICE
    ('-', ('3E-39', '2.93873588E-39'), (' 0', '00 00 00 00 00')),
    # an exponent gap of -128 in FDIV: exponent 1, the sign lost ($B8FB)
    ('/', ('3E-38', '10'), (' 3.00000001E-39', '01 02 ab 1e 2a')),
    ('/', ('-3E-38', '10'), (' 3.00000001E-39', '01 02 ab 1e 2a')),  # VICE
    ('/', ('3E-39', '10'), (' 0', '00 00 00 00 00')),  # VICE
    ('/', ('1', '3E-39'), 'OVERFLOW'),  # VICE
    ('/', ('1', '0'), 'DIVISION BY ZERO'),
    ('/', ('0', '0'), 'DIVISION BY ZERO'),
    ('/', ('1.7E38', '.5'), 'OVERFLOW'),
    ('/', ('1E38', '1E-1'), 'OVERFLOW'),
    # 0^Y is 0 for any Y but 0 (no ?DIVISION BY ZERO); a negative base needs an integer Y
    ('^', ('0', '-1'), (' 0', '00 00 00 00 00')),  # VICE
    ('^', ('0', '-.5'), (' 0', '00 00 00 00 00')),  # VICE
    ('^', ('0', '0'), (' 1', '81 00 00 00 00')),  # VICE
    ('^', ('-8', '.333333333'), 'ILLEGAL QUANTITY'),
    ('^', ('-2', '3'), ('-8', '84 80 00 00 00')),  # VICE
    ('^', ('-2', '-3'), ('-.125', '7e 80 00 00 00')),
    ('^', ('-2', '.5'), 'ILLEGAL QUANTITY'),
    ('^', ('2', '126'), (' 8.50705917E+37', 'ff 00 00 00 00')),  # VICE
    ('^', ('2', '127'), 'OVERFLOW'),  # VICE
    ('^', ('2', '-128'), (' 0', '00 00 00 00 00')),
    ('^', ('2', '-129'), (' 0', '00 00 00 00 00')),
    ('^', ('10', '38'), (' 1E+38', 'ff 16 76 99 51')),
    ('^', ('10', '39'), 'OVERFLOW'),
    ('^', ('1', '1E38'), (' 1', '81 00 00 00 00')),
    ('^', ('2', '1E30'), 'OVERFLOW'),
    ('^', ('.5', '1E30'), (' 0', '00 00 00 00 00')),  # VICE
    ('^', ('.001', '1E38'), 'OVERFLOW'),
    ('SQR', ('-1',), 'ILLEGAL QUANTITY'),  # VICE
    ('SQR', ('-1E-30',), 'ILLEGAL QUANTITY'),
    ('SQR', ('0',), (' 0', '00 00 00 00 00')),
    ('SQR', ('1E38',), (' 1E+19', 'c0 0a c7 23 08')),
    ('SQR', ('3E-39',), (' 5.47722558E-20', '41 01 53 cc 0e')),
    ('LOG', ('0',), 'ILLEGAL QUANTITY'),  # VICE
    ('LOG', ('-1',), 'ILLEGAL QUANTITY'),
    ('LOG', ('3E-39',), ('-88.7022064', '87 b1 67 87 97')),  # VICE
    ('LOG', ('1.70141183E38',), (' 88.0296919', '87 30 0f 33 c8')),
    ('EXP', ('88.02',), (' 1.68500152E+38', 'ff 7d 87 e5 cd')),
    ('EXP', ('88.0296919',), (' 1.70141183E+38', 'ff 7f ff ff ff')),
    ('EXP', ('88.03',), 'OVERFLOW'),  # VICE
    ('EXP', ('-88',), (' 6.05460193E-39', '02 03 db 88 9e')),  # VICE
    ('EXP', ('-88.5',), (' 0', '00 00 00 00 00')),  # VICE
    ('EXP', ('1E38',), 'OVERFLOW'),
    ('EXP', ('-1E38',), 'OVERFLOW'),
    ('TAN', ('1.57079633',), ('-341782637', '9d a2 f9 83 6c')),  # VICE
    ('TAN', ('1.5707963268',), 'DIVISION BY ZERO'),  # VICE
    ('TAN', ('-1.5707963268',), 'DIVISION BY ZERO'),
    ('TAN', ('4.71238898',), ('-683565275', '9e a2 f9 83 6d')),
    ('SIN', ('1E38',), (' 0', '00 00 00 00 00')),
    ('SIN', ('3E-39',), (' 0', '00 00 00 00 00')),
    ('COS', ('1E38',), (' 0', '00 00 00 00 00')),
    ('ATN', ('1E38',), (' 1.57079633', '81 49 0f da a2')),
    ('ATN', ('3E-39',), (' 3.00000001E-39', '01 02 ab 1e 2a')),  # VICE
    ('INT', ('-3E-39',), ('-1', '81 80 00 00 00')),
    ('INT', ('2147483648.5',), (' 2.14748365E+09', 'a0 00 00 00 01')),
    ('INT', ('-2147483648.5',), ('-2.14748365E+09', 'a0 80 00 00 01')),
    ('INT', ('1.7E38',), (' 1.7E+38', 'ff 7f c9 9e 41')),
]

# FIN (as VAL, INPUT and READ call it) on odd texts: the value and where reading stopped
FIN_FACTS: list[tuple[bytes, tuple[float, int] | str]] = [
(b'\xab5', (0.0, 0)),
    (b'\xaa5', (0.0, 0)),
    (b'+5', (5.0, 2)),
    (b' - 5', (-5.0, 4)),
    (b'1E', (1.0, 2)),
    (b'1E-', (1.0, 3)),
    (b'1.2.3', (1.1999999999534339, 3)),
    (b'1E5E3', (100000.0, 3)),
    (b'1E+\xab2', (1.0, 3)),
    (b'1E\xab2', (0.010000000000218279, 4)),
    (b'1E\xaa2', (100.0, 4)),
    (b'5 E 3', (5000.0, 5)),
    (b'1E-0000000000000000009', (1.0000000001241655e-09, 22)),
    (b'.', (0.0, 1)),
    (b'-', (0.0, 1)),
    (b'E5', (0.0, 2)),
    (b"." + b"0" * 300 + b"1", (0.0, 302)),  # 301 digits after the point wrap to 45: 1E-45 is 0
    (b"1." + b"0" * 255 + b"1", "OVERFLOW"),
]


def edge_outcome(operation: str, operands: tuple[str, ...]) -> Outcome:
    try:
        values = [floats.parse_number(text.encode("latin-1"))[0] for text in operands]
        if operation == "FIN":
            result = values[0]
        elif len(values) == 1:
            result = getattr(floats, FUNCTION_NAMES[operation])(values[0])
        else:
            left = floats.rounded(values[0])
            result = OPERATORS[operation](left, values[1])
        return floats.format_number(result), floats.to_bytes(result).hex(" ")
    except floats.FloatError as error:
        return error.error


FUNCTION_NAMES = {"INT": "floor", "SQR": "sqr", "LOG": "log", "EXP": "exp", "SIN": "sin", "COS": "cos",
                  "TAN": "tan", "ATN": "atn"}
OPERATORS = {"+": floats.add, "-": floats.subtract, "*": floats.multiply, "/": floats.divide,
             "^": floats.power}


@pytest.mark.parametrize(("operation", "operands", "expected"), EDGE_FACTS,
                         ids=[f"{o} {' '.join(a)}" for o, a, _ in EDGE_FACTS])
def test_edges_of_the_range(operation: str, operands: tuple[str, ...], expected: Outcome) -> None:
    assert edge_outcome(operation, operands) == expected


@pytest.mark.parametrize(("text", "expected"), FIN_FACTS)
def test_fin_on_odd_texts(text: bytes, expected: tuple[float, int] | str) -> None:
    try:
        assert floats.parse_number(text) == expected
    except floats.FloatError as error:
        assert error.error == expected


# -- any input: a FloatError or a result, in bounded work ----------------------------------------

any_floats = st.floats(allow_nan=True, allow_infinity=True)
UNARY = [floats.floor, floats.to_integer, floats.sqr, floats.log, floats.exp, floats.sin, floats.cos,
         floats.tan, floats.atn, floats.sgn, floats.rounded, floats.to_bytes, floats.format_number,
         lambda value: floats.Random().next(value)]
BINARY = [floats.add, floats.subtract, floats.multiply, floats.divide, floats.power, floats.compare]


@settings(max_examples=200, deadline=None)
@given(any_floats, any_floats)
def test_only_float_errors_on_any_python_float(left: float, right: float) -> None:
    """Numbers the C64 cannot hold (infinities, NaN, beyond 2**127) are ?OVERFLOW,
    never a Python exception of another kind."""
    for function in UNARY:
        try:
            function(left)
        except floats.FloatError:
            pass
    for binary in BINARY:
        try:
            binary(left, right)
        except floats.FloatError:
            pass


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300), st.integers(0, 310))
def test_parse_number_reads_any_bytes(text: bytes, start: int) -> None:
    try:
        value, end = floats.parse_number(text, start)
    except floats.FloatError as error:
        assert error.error == "OVERFLOW"
        return
    assert start <= end or start > len(text)
    assert floats.to_fac(value)  # a number the C64 holds


@pytest.mark.parametrize("text", [
    b"9" * 10000, b"0" * 10000 + b"1", b"." + b"0" * 10000 + b"1", b"1E99999999", b"1E-" + b"9" * 10000,
    b"0" * 100000, b" " * 100000 + b"5",
])
def test_parse_number_does_bounded_work_on_long_texts(text: bytes) -> None:
    """One step per character and at most 128 scaling steps (the counters are bytes,
    as in the ROM): these return at once, with the ROM's answer."""
    try:
        floats.parse_number(text)
    except floats.FloatError as error:
        assert error.error == "OVERFLOW"
