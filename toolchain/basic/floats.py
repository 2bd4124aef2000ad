"""The C64's floating-point arithmetic, bit for bit.

BASIC V2 keeps numbers in 5 bytes (exponent, 32-bit mantissa) and computes in the
floating accumulator (FAC), which has one more byte below the mantissa: the rounding
byte.  Results differ from IEEE doubles in the last bits, and those bits show when a
number is printed (``.1`` added nine times to ``.1`` prints `` 1`` but is not 1).  So
every operation here follows what the ROM routines do, step by step, on Python integers:
the alignment shift that drops bits, the multiply loop that truncates as it shifts,
the restoring division that keeps two extra quotient bits, the rounding on store.
The behaviour was read from Marko Mäkelä's commented ROM disassembly (ROM 901226-01,
mist64/c64ref) and is checked against the ROM itself: tests/test_floats_rom.py runs its
routines on the 6502 core and compares results bit for bit, errors included, with the
weight on the edges of the range (where the ROM underflows to 0, where it stops with
?OVERFLOW, which inputs are ?ILLEGAL QUANTITY or ?DIVISION BY ZERO).

Values outside this module are Python floats: a number as stored (32-bit mantissa),
or the FAC with its rounding byte (40 bits), both exactly representable in a double.
"""

from __future__ import annotations

import math
from collections.abc import Callable

MASK40 = (1 << 40) - 1


class FloatError(Exception):
    """?OVERFLOW, ?DIVISION BY ZERO or ?ILLEGAL QUANTITY raised inside a routine."""

    def __init__(self, error: str) -> None:
        super().__init__(error)
        self.error = error


def _overflow() -> FloatError:
    return FloatError("OVERFLOW")


_CACHE_LIMIT = 1 << 16


def _memoized(function):
    """The ROM routines are pure functions of their operands, and slow in Python (a
    multiply is 40 steps): remember recent results (loops ask the same again)."""
    cache: dict = {}

    def wrapper(*arguments: float) -> float:
        result = cache.get(arguments)
        if result is None:
            if len(cache) >= _CACHE_LIMIT:
                cache.clear()
            result = cache[arguments] = function(*arguments)
        return result

    wrapper.__name__ = function.__name__
    wrapper.__doc__ = function.__doc__
    return wrapper


# A FAC is (exponent, negative, mantissa40): exponent 0 means zero, otherwise
# value = mantissa40 * 2**(exponent - 168), mantissa40 normalized (bit 39 set).
Fac = tuple[int, bool, int]
ZERO: Fac = (0, False, 0)


def to_fac(value: float) -> Fac:
    """A Python float as a FAC: the top 40 bits of its mantissa.  Magnitudes below the
    C64's smallest number (2**-128) are zero; at or above 2**127, and infinities and
    NaNs, are ?OVERFLOW (no C64 routine makes them, so they can only come from outside)."""
    if value == 0:
        return ZERO
    fraction, exponent = math.frexp(abs(value))
    exponent += 128
    if not 0 < exponent < 256:
        if exponent <= 0:
            return ZERO
        raise _overflow()
    try:
        return exponent, value < 0, int(fraction * (1 << 40))
    except (OverflowError, ValueError):  # frexp passes infinities and NaNs through
        raise _overflow() from None


def from_fac(fac: Fac) -> float:
    exponent, negative, mantissa = fac
    if exponent == 0:
        return 0.0
    value = math.ldexp(mantissa, exponent - 168)
    return -value if negative else value


def from_bytes(data: bytes) -> float:
    """A number in the 5-byte memory format (MFLPT), as in variables and the ROM."""
    if data[0] == 0:
        return 0.0
    mantissa = (data[1] | 0x80) << 24 | data[2] << 16 | data[3] << 8 | data[4]
    return from_fac((data[0], bool(data[1] & 0x80), mantissa << 8))


def to_bytes(value: float) -> bytes:
    exponent, negative, mantissa = round_fac(to_fac(value))
    if exponent == 0:
        return bytes(5)
    m = mantissa >> 8
    return bytes([exponent, (m >> 24 & 0x7F) | (0x80 if negative else 0),
                  m >> 16 & 0xFF, m >> 8 & 0xFF, m & 0xFF])


def _normalize(exponent: int, negative: bool, mantissa: int) -> Fac:
    """$B8D7: shift left until bit 39 is set; a mantissa whose top 32 bits are zero
    is zero (the rounding byte alone does not count), as is an exponent underflow."""
    shift = 0
    while mantissa >> 32 == 0:
        mantissa = mantissa << 8 & MASK40
        shift += 8
        if shift == 32:
            return ZERO
    while not mantissa >> 39:
        mantissa <<= 1
        shift += 1
    if shift >= exponent:
        return ZERO
    return exponent - shift, negative, mantissa


def _carried(exponent: int, negative: bool, mantissa: int) -> Fac:
    """$B936: a mantissa that carried out of 40 bits moves right by one, the exponent
    up by one (?OVERFLOW past 255); used by addition and by rounding."""
    if mantissa >> 40:
        exponent += 1
        if exponent > 255:
            raise _overflow()
        mantissa >>= 1
    return exponent, negative, mantissa


def round_fac(fac: Fac) -> Fac:
    """$BC1B: round the mantissa by the rounding byte's top bit (as on every store)."""
    exponent, negative, mantissa = fac
    if exponent == 0:
        return fac
    top = mantissa >> 8
    if mantissa & 0x80:
        top += 1
    return _carried(exponent, negative, top << 8)


def rounded(value: float) -> float:
    """The value as a variable stores it."""
    return from_fac(round_fac(to_fac(value)))


def _add(arg: Fac, fac: Fac) -> Fac:
    """$B86A: ARG + FAC.  ARG comes from memory (no rounding byte); FAC may have one."""
    a_exp, a_neg, a_man = arg
    f_exp, f_neg, f_man = fac
    if f_exp == 0:
        return arg
    if a_exp == 0:
        return fac
    if a_exp > f_exp:
        exponent, negative = a_exp, a_neg
        big, small = a_man, f_man >> (a_exp - f_exp)
    else:
        exponent, negative = f_exp, f_neg
        big, small = f_man, a_man >> (f_exp - a_exp)
    if a_neg == f_neg:
        total = big + small
        if a_exp == f_exp:
            # the carry left set by the exponent comparison goes into the rounding
            # byte's addition ($B8FE is reached with C=1 only from here)
            total += 1
        return _carried(exponent, negative, total)
    difference = big - small
    if difference < 0:
        negative = not negative
        difference = -difference
    return _normalize(exponent, negative, difference)


def _product_exponent(a_exp: int, f_exp: int) -> int:
    """$BAB7: add the exponents; 0 means the result underflows to zero."""
    total = a_exp + f_exp
    if total >= 256:
        if total - 256 >= 128:
            raise _overflow()
        return total - 128
    if total < 128:
        return 0
    return total - 128


def _multiply(arg: Fac, fac: Fac) -> Fac:
    """$BA28: ARG * FAC.  The FAC's bytes, rounding byte first, each drive eight
    add-and-shift steps on a 40-bit accumulator whose lowest bits fall off."""
    if fac[0] == 0 or arg[0] == 0:
        return ZERO
    exponent = _product_exponent(arg[0], fac[0])
    if exponent == 0:
        return ZERO
    addend = (arg[2] >> 8) << 8
    multiplier = fac[2]
    accumulator = 0
    # A zero byte shifts the accumulator a byte at a time through $B983, which adds 8
    # with the carry as it happens to be: with the carry clear (after the exponent
    # addition when the exponents sum to 256 or more, or after another zero byte) the
    # top 32 bits move one bit further and that bit is lost.  This is the ROM's
    # behaviour, and it shows: LOG(2) is exactly the stored constant only because of it.
    carry = arg[0] + fac[0] < 256
    for shift in range(0, 40, 8):
        byte = multiplier >> shift & 0xFF
        if byte == 0:
            accumulator >>= 8
            if not carry:
                accumulator = (accumulator >> 9 << 8) | (accumulator & 0xFF)
            carry = False
            continue
        for bit in range(8):
            if byte >> bit & 1:
                accumulator += addend
            accumulator >>= 1
        carry = True
    return _normalize(exponent, arg[1] != fac[1], accumulator)


def _divide(arg: Fac, fac: Fac, negative: bool | None = None) -> Fac:
    """$BB12: ARG / FAC.  The divisor is rounded first; the restoring division
    produces 34 quotient bits, the last two in the rounding byte."""
    if fac[0] == 0:
        raise FloatError("DIVISION BY ZERO")
    fac = round_fac(fac)
    if arg[0] == 0:
        return ZERO
    difference = arg[0] - fac[0]
    if difference >= 127:
        raise _overflow()
    if difference < -128:
        return ZERO
    if difference == -128:
        # $BAB7 finds the exponent byte 0 and leaves through $B8FB, which clears the sign
        # and returns to the division (not, as for a larger gap, out of it); the INC at
        # $BB21 makes the exponent 1.  So 3E-39 is readable, and the quotient is positive
        # even for a negative dividend.
        negative = False
    exponent = difference + 129
    divisor = fac[2] >> 8
    remainder = arg[2] >> 8
    quotient = 0
    for _ in range(34):
        bit = remainder >= divisor
        if bit:
            remainder -= divisor
        quotient = quotient << 1 | bit
        remainder <<= 1
    if negative is None:
        negative = arg[1] != fac[1]
    return _normalize(exponent, negative, quotient << 6)


def _negate(fac: Fac) -> Fac:
    return fac if fac[0] == 0 else (fac[0], not fac[1], fac[2])


def _memory(fac: Fac) -> Fac:
    """A value as it comes from memory into ARG: rounded, no rounding byte."""
    return round_fac(fac)


def _times10(fac: Fac) -> Fac:
    """$BAE2: 4x + x, then double: the value is rounded first."""
    fac = round_fac(fac)
    if fac[0] == 0:
        return fac
    exponent = fac[0] + 2
    if exponent > 255:
        raise _overflow()
    total = _add((exponent, fac[1], fac[2]), fac)
    if total[0] + 1 > 255:
        raise _overflow()
    return total[0] + 1, total[1], total[2]


TEN = to_fac(10.0)


def _divide10(fac: Fac) -> Fac:
    """$BAFE: the result is always positive (the callers keep the sign apart)."""
    return _divide(round_fac(fac), TEN, negative=False)


def _compare(memory: Fac, fac: Fac) -> int:
    """$BC5B: -1, 0 or 1 as FAC is below, equal to or above the memory value; the
    FAC's rounding byte counts as a rounding of its last mantissa byte."""
    m_exp, m_neg, m_man = memory
    f_exp, f_neg, f_man = fac
    if m_exp == 0:
        return 0 if f_exp == 0 else (-1 if f_neg else 1)
    if f_exp == 0:
        return 1 if m_neg else -1
    if m_neg != f_neg:
        return -1 if f_neg else 1
    sign = -1 if f_neg else 1
    if m_exp != f_exp:
        return sign if f_exp > m_exp else -sign
    m_top, f_top = m_man >> 16, f_man >> 16
    if m_top != f_top:
        return sign if f_top > m_top else -sign
    m_low = m_man >> 8 & 0xFF
    f_low = (f_man >> 8 & 0xFF) + (1 if f_man & 0x80 else 0)
    if m_low == f_low:
        return 0
    return sign if f_low > m_low else -sign


def _floor_integer(fac: Fac) -> int:
    """QINT ($BC9B) as a Python integer: the floor of the 40-bit value."""
    exponent, negative, mantissa = fac
    if exponent == 0:
        return 0
    shift = 168 - exponent
    if shift <= 0:
        magnitude = mantissa << -shift
        return -magnitude if negative else magnitude
    if negative:
        return -((mantissa + (1 << shift) - 1) >> shift)
    return mantissa >> shift


def _from_integer(number: int) -> Fac:
    if number == 0:
        return ZERO
    magnitude = abs(number)
    return _normalize(128 + 32, number < 0, magnitude << 8) if magnitude < (1 << 32) else \
        to_fac(float(number))


# -- the operators, on floats (left operand as stored, right operand as in the FAC) --------
#
# The shortcuts test "is a whole number" as ``x % 1.0 == 0.0`` (exact: fmod is, and a
# remainder that is not 0 never rounds to 0), which costs about half of ``x == int(x)``
# (a call of the int type, an int compared with a float): they run for most arithmetic.

def add(left: float, right: float) -> float:
    """FADD ($B867): ``left`` as stored (5 bytes), ``right`` as in the FAC (its rounding
    byte included)."""
    total = left + right
    # The shortcut, and why it is the ROM's result exactly.  Guard: both operands and
    # the sum strictly inside +-2**32, the sum a whole number, and the double sum exact
    # (both differences give the operands back: the one taken from the larger operand
    # is exact, so a difference that does not give the other one back shows a rounded
    # sum).  Then:
    # * The larger operand's exponent is at most $A0 (below 2**32), so bit 0 of its
    #   40-bit mantissa is worth 2**-8 or less, and the ones digit is bit 8 or higher.
    # * The sum is whole and the larger operand lies on that grid, so the smaller one's
    #   bits lie on it too (small = sum - large): the alignment shift drops none.
    # * Same signs: the sum carries out of 40 bits at most once, and the bit shifted
    #   out is below the ones digit (0, or the one the ROM's carry put in the rounding
    #   byte when the exponents are equal, $B8FE): dropping it changes nothing.
    # * Opposite signs: a non-zero whole difference has a bit at 8 or higher, so
    #   $B8D7's "top 32 bits zero is zero" does not strike; zero is zero.
    # * A result of 0 is +0.0 both ways.
    # Both bounds matter: an inexact double sum can round to a whole number the ROM
    # does not reach (1520319949 + (2 - 2**-31) is 1520319950.99804688 on the C64), and
    # with an operand of 2**32 or more the ones digit lies in the rounding byte, which
    # normalizes to 0: 2**32 - (2**32 - 1) is 0 on the C64.  ``left`` must be a stored
    # value (the ROM rounds it into ARG): every caller passes one.
    if (-4294967296.0 < total < 4294967296.0 and total % 1.0 == 0.0
            and -4294967296.0 < left < 4294967296.0 and -4294967296.0 < right < 4294967296.0
            and total - left == right and total - right == left):
        return total
    return from_fac(_add(_memory(to_fac(left)), to_fac(right)))


def subtract(left: float, right: float) -> float:
    """FSUB ($B850): the FAC negated, then FADD; the shortcut is add's (see there),
    with ``-right``."""
    total = left - right
    if (-4294967296.0 < total < 4294967296.0 and total % 1.0 == 0.0
            and -4294967296.0 < left < 4294967296.0 and -4294967296.0 < right < 4294967296.0
            and left - total == right and total + right == left):
        return total
    return from_fac(_add(_memory(to_fac(left)), _negate(to_fac(right))))


def multiply(left: float, right: float) -> float:
    """FMULT ($BA28): ``left`` as stored, ``right`` as in the FAC."""
    product = left * right
    # The shortcut, and why it is the ROM's result exactly.  Guard: both operands whole,
    # the right one inside +-2**24, the product whole and inside +-2**32 (so exact as a
    # double).  Then, with L and R the operands' magnitudes of b_L and b_R bits:
    # * R below 2**24 has an exponent of at most $98: its ones digit is bit 16 or
    #   higher of the FAC's 40 bits, so the rounding byte and the low mantissa byte
    #   are 0.  Those two zero bytes come first in _multiply's loop, while the
    #   accumulator is still 0: the ROM's zero-byte quirk (a bit lost when the carry
    #   is clear) loses a 0.  The top byte is never 0 (normalized), so a zero byte
    #   among the top three follows a non-zero one (carry set): no bit is lost there.
    # * Each step adds the multiplicand and shifts right; a 1 falls off only if a
    #   partial sum has a bit below bit 0.  L's lowest bit is at 168 - e_L or higher,
    #   R's at 168 - e_R, so every partial sum's bits are at (168 - e_L) + (168 - e_R)
    #   - 40 = 296 - (e_L + e_R) or higher, and e_L + e_R = 256 + b_L + b_R <= 289
    #   because the product is below 2**32 (b_L + b_R <= 33): nothing falls off.
    # * The accumulator is then the exact product, at least 2**38 (both mantissas have
    #   bit 39 set): $B8D7 normalizes it without loss, the exponent is in range.
    # * A product of 0 is 0.0 on the C64 where Python may give -0.0 (-1 * 0); a -0.0
    #   is equal to 0.0 everywhere the runner uses numbers (comparison, FOUT's " 0",
    #   the 5-byte store, dictionary keys), so it cannot be told apart.
    # * |L| <= |product| when R is a non-zero whole number, so L is below 2**32 too;
    #   a zero operand is the ROM's zero at once.
    # More significant bytes in R can meet the zero-byte quirk: 3 * 16777217 is
    # 50331649.5 on the C64.
    if (-4294967296.0 < product < 4294967296.0 and -16777216.0 < right < 16777216.0
            and product % 1.0 == 0.0 and left % 1.0 == 0.0 and right % 1.0 == 0.0):
        return product
    return from_fac(_multiply(_memory(to_fac(left)), to_fac(right)))


# The same operators with the result as a variable stores it (rounded): what the
# runner's ``X = A + B`` needs, in one call.  The shortcuts are the ones above: their
# results are whole numbers below 2**32, whose rounding byte is 0, so the store ($BBD4)
# keeps them as they are.

def add_stored(left: float, right: float) -> float:
    total = left + right
    if (-4294967296.0 < total < 4294967296.0 and total % 1.0 == 0.0
            and -4294967296.0 < left < 4294967296.0 and -4294967296.0 < right < 4294967296.0
            and total - left == right and total - right == left):
        return total
    return from_fac(round_fac(_add(_memory(to_fac(left)), to_fac(right))))


def subtract_stored(left: float, right: float) -> float:
    total = left - right
    if (-4294967296.0 < total < 4294967296.0 and total % 1.0 == 0.0
            and -4294967296.0 < left < 4294967296.0 and -4294967296.0 < right < 4294967296.0
            and left - total == right and total + right == left):
        return total
    return from_fac(round_fac(_add(_memory(to_fac(left)), _negate(to_fac(right)))))


def multiply_stored(left: float, right: float) -> float:
    product = left * right
    if (-4294967296.0 < product < 4294967296.0 and -16777216.0 < right < 16777216.0
            and product % 1.0 == 0.0 and left % 1.0 == 0.0 and right % 1.0 == 0.0):
        return product
    return from_fac(round_fac(_multiply(_memory(to_fac(left)), to_fac(right))))


@_memoized
def divide(left: float, right: float) -> float:
    return from_fac(_divide(_memory(to_fac(left)), to_fac(right)))


def compare(left: float, right: float) -> int:
    """-1, 0, 1 as left is below, equal to or above right (the ROM compares the
    FAC, holding the right operand, with the left one)."""
    return -_compare(_memory(to_fac(left)), to_fac(right))


def floor(value: float) -> float:
    """INT: the floor; numbers of 2**31 and above are already integers."""
    fac = to_fac(value)
    if fac[0] >= 0xA0:
        return value
    return from_fac(_from_integer(_floor_integer(fac)))


def to_integer(value: float) -> int:
    """AYINT ($B1BF): to -32768..32767 by flooring, else ?ILLEGAL QUANTITY.  The range
    check compares with -32768 the ROM's way, rounding byte included, so a FAC just
    below -32768 passes; its floor -32769 leaves 32767 in the two low bytes."""
    fac = to_fac(value)
    if fac[0] >= 0x90 and _compare(to_fac(-32768.0), fac) != 0:
        raise FloatError("ILLEGAL QUANTITY")
    return (_floor_integer(fac) + 0x8000 & 0xFFFF) - 0x8000


@_memoized
def power(base: float, exponent: float) -> float:
    return from_fac(_power(_memory(to_fac(base)), to_fac(exponent)))


# -- the functions ---------------------------------------------------------------------

def _constant(*data: int) -> Fac:
    return to_fac(from_bytes(bytes(data)))


ONE = _constant(0x81, 0x00, 0x00, 0x00, 0x00)
HALF = _constant(0x80, 0x00, 0x00, 0x00, 0x00)
MINUS_HALF = _constant(0x80, 0x80, 0x00, 0x00, 0x00)
SQR_HALF = _constant(0x80, 0x35, 0x04, 0xF3, 0x34)  # 0.5 * SQR(2)
SQR_TWO = _constant(0x81, 0x35, 0x04, 0xF3, 0x34)
LOG_TWO = _constant(0x80, 0x31, 0x72, 0x17, 0xF8)
ONE_OVER_LOG_TWO = _constant(0x81, 0x38, 0xAA, 0x3B, 0x29)
HALF_PI = _constant(0x81, 0x49, 0x0F, 0xDA, 0xA2)
TWO_PI = _constant(0x83, 0x49, 0x0F, 0xDA, 0xA2)
QUARTER = _constant(0x7F, 0x00, 0x00, 0x00, 0x00)
PI = from_bytes(bytes([0x82, 0x49, 0x0F, 0xDA, 0xA1]))
LOG_SERIES = [_constant(*c) for c in (
    (0x7F, 0x5E, 0x56, 0xCB, 0x79), (0x80, 0x13, 0x9B, 0x0B, 0x64),
    (0x80, 0x76, 0x38, 0x93, 0x16), (0x82, 0x38, 0xAA, 0x3B, 0x20))]
EXP_SERIES = [_constant(*c) for c in (
    (0x71, 0x34, 0x58, 0x3E, 0x56), (0x74, 0x16, 0x7E, 0xB3, 0x1B),
    (0x77, 0x2F, 0xEE, 0xE3, 0x85), (0x7A, 0x1D, 0x84, 0x1C, 0x2A),
    (0x7C, 0x63, 0x59, 0x58, 0x0A), (0x7E, 0x75, 0xFD, 0xE7, 0xC6),
    (0x80, 0x31, 0x72, 0x18, 0x10), (0x81, 0x00, 0x00, 0x00, 0x00))]
SIN_SERIES = [_constant(*c) for c in (
    (0x84, 0xE6, 0x1A, 0x2D, 0x1B), (0x86, 0x28, 0x07, 0xFB, 0xF8),
    (0x87, 0x99, 0x68, 0x89, 0x01), (0x87, 0x23, 0x35, 0xDF, 0xE1),
    (0x86, 0xA5, 0x5D, 0xE7, 0x28), (0x83, 0x49, 0x0F, 0xDA, 0xA2))]
ATN_SERIES = [_constant(*c) for c in (
    (0x76, 0xB3, 0x83, 0xBD, 0xD3), (0x79, 0x1E, 0xF4, 0xA6, 0xF5),
    (0x7B, 0x83, 0xFC, 0xB0, 0x10), (0x7C, 0x0C, 0x1F, 0x67, 0xCA),
    (0x7C, 0xDE, 0x53, 0xCB, 0xC1), (0x7D, 0x14, 0x64, 0x70, 0x4C),
    (0x7D, 0xB7, 0xEA, 0x51, 0x7A), (0x7D, 0x63, 0x30, 0x88, 0x7E),
    (0x7E, 0x92, 0x44, 0x99, 0x3A), (0x7E, 0x4C, 0xCC, 0x91, 0xC7),
    (0x7F, 0xAA, 0xAA, 0xAA, 0x13), (0x81, 0x00, 0x00, 0x00, 0x00))]
RND_MULTIPLIER = _constant(0x98, 0x35, 0x44, 0x7A, 0x00)
RND_ADDEND = _constant(0x68, 0x28, 0xB1, 0x46, 0x00)
RND_FIRST_SEED = bytes([0x80, 0x4F, 0xC7, 0x52, 0x58])  # $E3BA, copied at power-on


def _polynomial(x: Fac, series: list[Fac]) -> Fac:
    """$E059: Horner's rule, x kept as stored (rounded) between the steps."""
    stored = _memory(x)
    fac = _multiply(series[0], stored)
    fac = _add(series[1], fac)
    for coefficient in series[2:]:
        fac = _multiply(stored, fac)
        fac = _add(coefficient, fac)
    return fac


def _odd_polynomial(x: Fac, series: list[Fac]) -> Fac:
    """$E043: x * P(x*x)."""
    stored = _memory(x)
    square = _multiply(stored, stored)
    return _multiply(stored, _polynomial(square, series))


def _log(fac: Fac) -> Fac:
    if fac[0] == 0 or fac[1]:
        raise FloatError("ILLEGAL QUANTITY")
    scale = fac[0] - 0x80
    fac = (0x80, False, fac[2])
    fac = _add(SQR_HALF, fac)
    fac = _divide(SQR_TWO, fac)
    fac = _add(ONE, _negate(fac))
    fac = _odd_polynomial(fac, LOG_SERIES)
    fac = _add(MINUS_HALF, fac)
    fac = _add(_memory(fac), _from_integer(scale))
    return _multiply(LOG_TWO, fac)


def _exp(fac: Fac) -> Fac:
    fac = _multiply(ONE_OVER_LOG_TWO, fac)
    leftover = (fac[2] & 0xFF) + 0x50
    if leftover > 0xFF:
        fac = round_fac((fac[0], fac[1], fac[2] | 0x80))
    leftover &= 0xFF
    if fac[0] >= 0x88:
        if fac[1]:
            return ZERO
        raise _overflow()
    whole = _floor_integer((fac[0], fac[1], fac[2] >> 8 << 8))
    scale = (whole + 0x81) & 0xFF
    if scale == 0:
        if fac[1]:
            return ZERO
        raise _overflow()
    fraction_input = (fac[0], fac[1], (fac[2] >> 8 << 8) | leftover)
    integer_part = _memory(_from_integer(whole))
    fraction = _negate(_add(integer_part, _negate(fraction_input)))
    fac = _polynomial(fraction, EXP_SERIES)
    if fac[0] == 0:
        return fac
    exponent = _product_exponent(scale - 1, fac[0]) if scale - 1 else 0
    if exponent == 0:
        return ZERO
    return exponent, False, fac[2]


def _power(base: Fac, exponent: Fac) -> Fac:
    """$BF7B: EXP(y * LOG(|x|)), negated for a negative base and an odd integer y.

    X^0 is 1 and 0^Y is 0 for every other Y, negative ones too (0^-1 is 0, no
    ?DIVISION BY ZERO).  A negative base with a Y that INT changes keeps its sign, so
    LOG stops with ?ILLEGAL QUANTITY ((-8)^(1/3), SQR(-1)).  For |Y| >= 2**31 INT
    returns at once and the ROM takes the parity from $07, which then holds whatever
    INT, EXP, SIN or a string scan last left there; the true parity stands in for it."""
    if exponent[0] == 0:
        return _exp(ZERO)
    if base[0] == 0:
        return ZERO
    stored = _memory(exponent)
    odd = False
    if base[1]:
        whole = _floor_integer(stored)
        if _compare(stored, _from_integer(whole)) != 0:
            raise FloatError("ILLEGAL QUANTITY")
        odd = bool(whole & 1)
    fac = _log((base[0], False, base[2]))
    fac = _exp(_multiply(stored, fac))
    return _negate(fac) if odd else fac


def _reduce_turns(fac: Fac) -> tuple[Fac, bool, Fac]:
    """The first part of SIN ($E26B): x in turns, folded into [-1/4, 1/4]; returns
    the folded value, whether the cosine's sign flips (TAN's flag), and the value
    the series is evaluated on."""
    turns = _divide(_memory(fac), TWO_PI, negative=fac[1])
    stored = _memory(turns)
    whole = _from_integer(_floor_integer(turns))
    fraction = _add(stored, _negate(whole))
    fac = _add(QUARTER, _negate(fraction))
    flip = False
    first_negative = fac[1]
    if not first_negative:
        fac = _negate(fac)
    else:
        fac = _add(HALF, fac)
        if not fac[1]:
            flip = True
            fac = _negate(fac)
    fac = _add(QUARTER, fac)
    if first_negative:
        fac = _negate(fac)
    return fac, flip, fac


def _sin(fac: Fac) -> Fac:
    folded, _, _ = _reduce_turns(fac)
    return _odd_polynomial(folded, SIN_SERIES)


def _tan(fac: Fac) -> Fac:
    folded, flip, _ = _reduce_turns(fac)
    sine = _memory(_odd_polynomial(folded, SIN_SERIES))
    # TAN reuses the folded value SIN left at $57: the cosine is the sine of 1/4 - |t|
    t = (_memory(folded)[0], False, _memory(folded)[2])
    fac = _add(QUARTER, _negate(t))
    if flip:
        fac = _negate(fac)
    cosine = _odd_polynomial(fac, SIN_SERIES)
    return _divide(sine, cosine)


def _atn(fac: Fac) -> Fac:
    negative = fac[1]
    fac = (fac[0], False, fac[2]) if fac[0] else fac
    large = fac[0] >= 0x81
    if large:
        fac = _divide(ONE, fac)
    fac = _odd_polynomial(fac, ATN_SERIES)
    if large:
        fac = _add(HALF_PI, _negate(fac))
    return _negate(fac) if negative else fac


def _unary(function):
    @_memoized
    def wrapper(value: float) -> float:
        return from_fac(function(to_fac(value)))

    wrapper.__name__ = function.__name__.lstrip("_")
    wrapper.__doc__ = function.__doc__
    return wrapper


log = _unary(_log)
exp = _unary(_exp)
sin = _unary(_sin)
tan = _unary(_tan)
atn = _unary(_atn)


@_memoized
def cos(value: float) -> float:
    return from_fac(_sin(_add(HALF_PI, to_fac(value))))


@_memoized
def sqr(value: float) -> float:
    """SQR is X^.5 through LOG and EXP, as in the ROM (so SQR(9) is not exactly 3)."""
    return from_fac(_power(_memory(to_fac(value)), HALF))


def sgn(value: float) -> float:
    return 0.0 if value == 0 else (-1.0 if value < 0 else 1.0)


class Random:
    """RND's generator: a seed in 5 bytes, stirred the ROM's way ($E097)."""

    def __init__(self) -> None:
        self.seed = from_bytes(RND_FIRST_SEED)

    def next(self, argument: float, clock: int = 0) -> float:
        fac = to_fac(argument)
        if fac[0] == 0:
            # RND(0) mixes the CIA timer bytes; a headless run has no real timers,
            # so the jiffy clock stands in (the C64's own values are unpredictable too)
            scrambled = ((clock * 2654435761) & 0xFFFFFFFF) | 1
            fac = ZERO
        else:
            if not fac[1]:
                fac = _add(RND_ADDEND, _multiply(RND_MULTIPLIER, to_fac(self.seed)))
            top = fac[2] >> 8
            # the four mantissa bytes are swapped end for end
            scrambled = int.from_bytes(top.to_bytes(4, "big")[::-1], "big")
        result = round_fac(_normalize(0x80, False, scrambled << 8 | fac[0]))
        self.seed = from_fac(result)
        return self.seed


# -- numbers to text and back ----------------------------------------------------------

_UPPER = _constant(0x9E, 0x6E, 0x6B, 0x27, 0xFD)  # 999999999.25
_LOWER = _constant(0x9B, 0x3E, 0xBC, 0x1F, 0xFD)  # 99999999.90625
_BILLION = _constant(0x9E, 0x6E, 0x6B, 0x28, 0x00)


def fout_scaled(fac: Fac, step: Callable[[str, Fac], None] | None = None) -> tuple[int, int]:
    """FOUT's scaling ($BDF8-$BE32) of a FAC above 0: multiplied by 10**9 when below 1,
    then divided or multiplied by ten until it is 100000000..999999999, rounded: the
    nine digits as an integer and the decimal exponent the scaling took.  ``step`` is
    told each step whose time the number moves ("multiply", "divide10", "times10") with
    the FAC it works on (costs.fout_features; the FCOMPs come with them)."""
    decimal_exponent = 0
    if fac[0] <= 0x80:
        if step:
            step("multiply", fac)
        fac = _multiply(_BILLION, fac)
        decimal_exponent = -9
    while True:
        relation = _compare(_UPPER, fac)
        if relation == 0:
            break
        if relation > 0:
            if step:
                step("divide10", fac)
            fac = _divide10(fac)
            decimal_exponent += 1
            continue
        while True:
            relation = _compare(_LOWER, fac)
            if relation > 0:
                break
            if step:
                step("times10", fac)
            fac = _times10(fac)
            decimal_exponent -= 1
        fac = _add(HALF, fac)
        break
    return _floor_integer(fac), decimal_exponent


def fout_point(decimal_exponent: int) -> tuple[int, int]:
    """Where FOUT puts the point among the nine digits (before the first for 0, after
    the last for 9; less than 0: zeros after the point first), and the E exponent (0:
    none), for the decimal exponent of fout_scaled ($BE35-$BE4A)."""
    if -10 <= decimal_exponent <= 0:
        return decimal_exponent + 9, 0
    return 1, decimal_exponent + 8


def _format(value: float) -> str:
    fac = to_fac(value)
    sign = "-" if fac[1] else " "
    if fac[0] == 0:
        return " 0"
    nine_digits, decimal_exponent = fout_scaled((fac[0], False, fac[2]))
    digits = f"{nine_digits:09d}"
    point, exponent = fout_point(decimal_exponent)
    if point <= 0:
        text = "." + "0" * -point + digits
    else:
        text = digits[:point] + "." + digits[point:]
    text = text.rstrip("0")
    if text.endswith("."):
        text = text[:-1]
    if exponent:
        text += f"E{'+' if exponent > 0 else '-'}{abs(exponent):02d}"
    return sign + text


_FORMAT_CACHE: dict[float, str] = {}


def format_number(value: float) -> str:
    """FOUT ($BDDD): a space or minus sign, then at most nine significant digits,
    E notation outside .01 ... 999999999 (``STR$`` and ``PRINT`` use this).  A FAC
    at the top of the range whose rounding byte carries is ?OVERFLOW, as FOUT rounds."""
    # The shortcut: a whole number n inside +-10**9.  FOUT scales n by tens into
    # 100000000..999999999 (times ten is exact for whole numbers below 2**32, see
    # add), adds .5 (exact: the FAC has bits to spare), takes the floor (n * 10**k
    # again) and prints its nine digits with the point after the first 9 - k and the
    # trailing zeros cut: the digits of n, after the sign's space or minus.  0 has no
    # sign in the FAC: " 0" (and a -0.0 from Python prints so too).
    if -1e9 < value < 1e9:
        whole = int(value)
        if whole == value:
            return f" {whole}" if value >= 0 else f"{whole}"
    text = _FORMAT_CACHE.get(value)
    if text is None:
        text = _format(value)
        if len(_FORMAT_CACHE) < 4096:
            _FORMAT_CACHE[value] = text
    return text


def parse_number(text: bytes, start: int = 0) -> tuple[float, int]:
    """FIN ($BCF3): the number at ``text[start:]`` (spaces skipped, as CHRGET does)
    and where it ends.  Each digit is a multiply by ten and an add; the decimal
    exponent is applied by repeated multiplies or divides by ten.

    The ROM counts in single bytes, and so does this: the digits after the point
    ($5D) and the decimal scale (exponent minus those digits, $5E) wrap at 256, the
    scale read as a signed byte; an exponent of three digits is ?OVERFLOW, or -100
    when negative.  So ``.`` with 29 zeros and ``1E-99`` is ?OVERFLOW (-129 wraps to
    +127), as on the C64.  The work is one step per character and at most 128 steps
    of scaling, whatever the input."""
    position = start
    length = len(text)

    def peek() -> int:
        nonlocal position
        while position < length and text[position] == 0x20:
            position += 1
        return text[position] if position < length else 0

    fac = ZERO
    fraction_digits = 0
    seen_point = False
    exponent = 0
    # the leading sign is the character only ($BCFE); the exponent's sign may also be
    # the token, as in program text ($BD1C)
    negative = False
    char = peek()
    if char in (0x2D, 0x2B):
        negative = char == 0x2D
        position += 1
    exponent_negative = False
    while True:
        char = peek()
        if 0x30 <= char <= 0x39:
            position += 1
            if seen_point:
                fraction_digits += 1
            if fac[0] or char != 0x30:
                fac = _times10(fac)
                fac = _add(_memory(fac), _from_integer(char - 0x30))
            continue
        if char == 0x2E and not seen_point:
            seen_point = True
            position += 1
            continue
        if char == 0x45:  # E
            position += 1
            char = peek()
            if char in (0x2D, 0xAB, 0x2B, 0xAA):
                exponent_negative = char in (0x2D, 0xAB)
                position += 1
            while True:
                char = peek()
                if not 0x30 <= char <= 0x39:
                    break
                position += 1
                if exponent >= 10:
                    if not exponent_negative:
                        raise _overflow()
                    exponent = 100
                else:
                    exponent = exponent * 10 + char - 0x30
        break
    scale = ((-exponent if exponent_negative else exponent) - fraction_digits) & 0xFF
    if scale >= 0x80:
        scale -= 0x100
    while scale > 0:
        fac = _times10(fac)
        scale -= 1
    while scale < 0:
        fac = _divide10(fac)
        scale += 1
    if negative:
        fac = _negate(fac)
    return from_fac(fac), position
