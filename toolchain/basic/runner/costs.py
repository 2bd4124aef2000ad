"""The C64's time for compiled BASIC: a cycle-cost model of the BASIC ROM's interpreter.

Compiled BASIC runs in Python, yet the program must see the time a C64 would take
(TI, TI$, the raster, the CIA timers, WAIT, the cycle limit).  The compiler counts,
for every statement it compiles, what the ROM's interpreter (BASIC 901226-01) does
with the same text, in *features*, and the features' weights (the CPU cycles each
takes in the ROM) give the statement's cycles, a compile-time constant; the generated
code adds them to the clock ``_T`` (a global of the generated module) once per
stretch of code that needs no decision, and where the program can look at the time
(PEEK, WAIT, TI, SYS, PRINT), before it looks.

The features, and which ROM routine each stands for:

* ``colon``, ``line``, ``then``: how a statement is reached: NEWSTT ($A7AE) after a
  colon (ISCNTC, the STOP key test; OLDTXT; GONE through ($0308) and the token's
  dispatch, $A7ED), at a line's start (the link and the number read into CURLIN),
  or right after THEN ($A93B goes to $A7ED without NEWSTT);
* ``byte``, ``space``: each byte of the statement's text CHRGET ($0073) reads, and
  each space it skips outside quotes (one more turn of its loop: 21 cycles, measured
  on the ROM and on VICE with tests/data/timing's compact.bas beside spaced.bas; the
  weight was 144 until 2026-12, making up for IF's, GOTO's, GOSUB's, FOR's and NEXT's
  own time in the spaced loops it was fitted to, so that a listing typed without
  spaces, as the 64'er printed them, ran up to 6% fast);
* ``stmt:KEYWORD``: the statement's own routine, beyond reading its text and its
  expressions (``stmt:LET`` for an assignment);
* ``var`` and ``var_skip``: a variable found by PTRGET ($B08B) and loaded into FAC
  (MOVFM), and each variable of the table it passes first (the table is in order of
  first use: the compiler takes the order of first appearance in the text; a variable
  read before any assignment is not created, and the search passes them all);
* ``num``, ``fin_*``, ``frac``, ``fdiv_one``, ``exp``: a number written in the text,
  read by FIN ($BCF3) each time the statement runs, step by step as the ROM does
  (:func:`number_features`: per digit MUL10, FLOAT and FADD, their shifts counted from
  the values' exponents); the weights were fitted to the ROM's time for 136 numbers
  (within 130 cycles each, the screen blanked so that no bad line falls inside);
* ``qint_byte``, ``qint_bit``: QINT ($BC9B) making POKE's and PEEK's numbers integers
  shifts the mantissa by $A0 less the exponent (:func:`qint_features`: 45 cycles a
  bit, measured with PEEK of 30 addresses);
* ``op:+`` ... ``op:rel``, ``op:AND``, ``op:NOT``, ``op:neg``, ``paren``: FRMEVL's
  operator loop ($ADB8) with the float routine ($B86A FADD, $BA28 FMULT, $BB12 FDIV,
  $BF7B FPWRT, $BC5B FCOMP); their weights are the ROM's time for typical operands
  (the float routines take longer for more mantissa bits; ``mul_byte``: each mantissa
  byte after the first that is not 0 of a number written right of ``*``, as FMULT
  runs its bit loop for each);
* ``fn:NAME``: a function ($AFA7 on; ``mid_no_length``: MID$ without its length skips
  CHKCOM and GETBYT, $B742: 1,196 cycles on the ROM, four MID$s measured; STR$ takes
  FOUT's steps for its number's digits, ``fout_*``, when it runs); ``array``,
  ``subscript``, ``array_skip``: an element found by ISARY/$B1D1 (each subscript
  converted by INTIDX, the array table searched array by array);
* ``read_item``, ``data_line``, ``data_statement``: READ taking a DATA item, and its
  search's stops on the way ($AC35: each line's link and number read, each statement
  DATAN skips looked at for DATA; the bytes DATAN passes count as ``rest_byte``; a
  number is read by FIN, as ``num``, ``digit``...): added at run time;
* ``next_var``: NEXT with a variable: its PTRGET and the FOR frame looked for by it
  ($AD24, FNDFOR), beyond ``var``;
* ``line_skip``, ``line_skip_same``, ``search_forward``, ``search_back``: FNDLIN
  ($A613) when GOTO, GOSUB or THEN looks for a line: from the next line when the
  target's number is larger, else from the first (:func:`search_cycles`); a line whose
  number's high byte differs from the target's is passed after one compare, one with
  the same high byte after two (measured on the ROM: 57 and 71 cycles);
* ``rest_byte``: a byte skipped by DATAN/REMN ($A906/$A909): the rest of the line
  after REM or a false IF, a DATA statement, the rest of a GOSUB's statement after
  RETURN;
* ``string_byte``, ``let_copy``, ``gc``, ``gc_pair``: a byte a concatenation copies into
  the string space (MOVSTR, $B67A: 18 cycles, measured on the ROM with concatenations
  and copies of 1 to 200 bytes), LET's copy of a string another variable holds in
  string space ($AA52, beyond the bytes: 214 cycles; a literal or DATA item keeps its
  pointer), and when the string space is used up, a garbage collection
  ($B526): for each string in use a look through every descriptor (``gc_pair`` for
  each pair), each byte moved up; added at run time;
* ``print_string``, ``print_number``, ``print_comma``, ``print_semicolon``,
  ``print_newline``: PRINT's items ($AAA0: STROUT for a string, FOUT and STROUT for a
  number), a comma (the cursor right to the next zone is printed), a semicolon (the
  chain of compares down to it and CHRGET, $AAE8), the RETURN at the end when no ``;``
  or ``,`` ends the statement; FOUT's steps for the number's digits (``fout_*``:
  :func:`fout_features`) are added when it is printed;
* ``literal_byte``: each byte of a quoted string that STRLIT ($B487) scans to its
  closing quote, in PRINT and in any expression (fitted with PRINT's weights; it was
  PRINT's alone until 2026-12, and ``A$="XXXXXXXXXX"`` took 35 cycles a byte less
  than on the ROM);
* ``chrout``, ``scroll``: a character PRINT sends through CHROUT ($FFD2, the screen
  editor's $E716) and a row the screen scrolls up by ($E8EA): added when they happen,
  since the text printed is known only then.  ``chrout`` is a letter's time; the
  editor's path for other bytes (cursor and colour codes, RETURN, CLR, DEL...) takes
  more or less, by the byte and the editor's mode (``CHROUT_PLAIN`` and the others).
  PRINT's weights, FOUT's and ``chrout`` are fitted to 26 PRINT statements and 41
  numbers printed on the ROM (``scripts/basic-costs --print``), ``scroll`` is the ROM's time for a row of a
  screen of unlinked lines (31,461 cycles; two rows of a linked line take 62,817).

The weights were measured on the ROM running on c64tc's CPU (each statement's cycles
between two passes of NEWSTT, the interrupts off), by ``scripts/basic-costs``, which
prints the ROM's cycles beside the model's for its set of statements and fits the
weights by least squares; ``tests/test_basic_time.py`` checks them against the ROM.

The machine's clock runs faster than BASIC's cycles: the VIC-II takes the bus for 40
cycles on each of a frame's 25 bad lines while the screen is on (``$D011`` bit 4),
and the KERNAL's interrupt handler runs sixty times a second.  ``stretch`` turns
BASIC's cycles into the machine's (see :func:`stretch`).
"""

from __future__ import annotations

from collections import Counter

from toolchain.basic import floats

# CPU cycles per feature: fitted by scripts/basic-costs --fit to BASIC 901226-01 on c64tc's
# 6502 (statement by statement, the interrupts off); the weights of IF, GOTO, GOSUB,
# RETURN, READ, line_skip, PRINT's, the strings' and the rest the fit leaves out are set
# from the ROM's statements (scripts/basic-costs --program) and the loops of
# tests/data/timing, and so are the float functions' for the operands those loops use.
# IF's, THEN's jump, GOTO's, GOSUB's, FOR's, NEXT's (and ``next_var``), READ's and
# ``read_item`` were fitted together (scripts/timing-vs-vice --fit) once a space took its
# ROM time, over every loop, the compact and spaced twins included; GOSUB's is 533 where
# the fit says 586, which puts bm5 and bm7 2% over, compact's GOSUB 1% under at 533.
# Single weights may look odd (the fit shares the time of a statement's parts among
# features that always come together, as ``colon`` and ``stmt:LET``); their sums are the
# ROM's (scripts/basic-costs prints both, statement by statement).
# FIN's (``fin_*``, ``frac``, ``fdiv_one``), QINT's, FNDLIN's (``line_skip*``, ``search_*``)
# and those of POKE and PEEK were measured on the ROM with the screen
# blanked (no bad line inside a statement; scripts/basic-costs does the same): FIN's by
# least squares over 136 numbers, whose intercept ``num`` (-155) trades with the older
# weights fitted together with the average number; ``num`` is -190, between it and -226
# (one-digit numbers as the older fit counted them), the value of that range that the
# timing programs of tests/data/timing agree with best.  ``fn:FN`` is FNDOER's own time
# ($B3F4: the argument's value and the parameter's old one saved, the body's text read,
# all put back) from A=FN Z(B) with DEF FN Z(Q)=Q on the ROM (3,434 cycles; the nested
# A=FN Z(FN Z(B)) comes out within 0.7%); the search for the function among the
# variables counts as a variable's (``var_skip``).
WEIGHTS: dict[str, float] = {
    "array": 2153, "array_skip": 40, "assign": 2736, "assign_int": 3276, "assign_str": 2820, "byte": -14,
    "chrout": 322, "colon": 202, "data_line": 43, "data_statement": 92, "exp": 1300, "fdiv_one": 44,
    "fin_align_bit": 46, "fin_align_byte": 60, "fin_carry": 26, "fin_digit": 789, "fin_first": -86,
    "fin_float_bit": 29, "fin_mul_zero": -187, "fin_zero_digit": 99, "fn:ABS": 571, "fn:ASC": 821,
    "fn:ATN": 39000, "fn:CHR$": 1166, "fn:COS": 26300, "fn:EXP": 24300, "fn:FN": 1554, "fn:FRE": 5784,
    "fn:INT": 1420, "fn:LEFT$": 2174, "fn:LEN": 929, "fn:LOG": 20600, "fn:MID$": 3455, "fn:PEEK": 900,
    "fn:POS": 700, "fn:RIGHT$": 2178, "fn:RND": 3687, "fn:SGN": 876, "fn:SIN": 25400, "fn:SQR": 47200,
    "fn:STR$": 2914, "fn:TAN": 50300, "fn:USR": 1000, "fn:VAL": 2607, "fout_digit_step": 49,
    "fout_divide10": 1983, "fout_exponent": 91, "fout_multiply": 1132, "fout_multiply_byte": 393,
    "fout_times10": 447, "fout_zero": -1821, "fout_zero_stripped": -17, "frac": 1926, "gc": 2000,
    "gc_pair": 74, "int_read": 220, "let_copy": 214, "line": 296, "line_skip": 57, "line_skip_same": 71,
    "literal_byte": 32, "mid_no_length": -1196, "mul_byte": 620, "next_var": 140, "num": -190, "op:*": 1588,
    "op:+": 931, "op:-": 1025, "op:/": 3000, "op:AND": 1969, "op:NOT": 1284, "op:OR": 2062, "op:^": 46500,
    "op:concat": 1045, "op:neg": 472, "op:rel": 1315, "paren": 473, "print_comma": 175, "print_newline": -5,
    "print_number": 2743, "print_semicolon": 70, "print_string": 623, "qint_bit": 45, "qint_byte": 30,
    "read_item": 838, "rest_byte": 19, "scroll": 31461, "search_back": 76, "search_forward": 322,
    "space": 21, "status_read": 300, "stmt:CLR": 0, "stmt:DATA": -11, "stmt:DEF": 1000, "stmt:DIM": 2500,
    "stmt:END": -300, "stmt:FOR": -894, "stmt:GET": 1500, "stmt:GOSUB": 533, "stmt:GOTO": 202,
    "stmt:IF": 399, "stmt:INPUT": 1500, "stmt:LET": -1993, "stmt:NEXT": 768, "stmt:ON": 800,
    "stmt:POKE": 1393, "stmt:PRINT": -64, "stmt:READ": 177, "stmt:REM": 23, "stmt:RESTORE": -8,
    "stmt:RETURN": 140, "stmt:STOP": -300, "stmt:SYS": 2100, "stmt:WAIT": 2100, "string_byte": 18,
    "subscript": 1891, "then": 650, "then_line": 636, "time_read": 1150, "var": 75, "var_skip": 38,
    "wait_invert": 700,
}


# a function or statement whose own time is not measured yet: a typical one's
UNMEASURED = {"fn": 2000.0, "stmt": 500.0}


# CHROUT's cycles for each byte beyond a letter's (``chrout``), measured on the ROM:
# PRINT A$; with A$ the byte, at row 5, column 10 of a cleared screen, the statement's
# cycles less those of a letter's (tests/test_basic_time.py measures them again and
# holds these within 6 cycles, the spread between bytes of one kind).  The editor's
# path depends on its mode: plain, quote mode ($D4: control codes are shown as reversed
# characters, but RETURN, and DEL, which still deletes) and insert mode ($D8: every
# control code is shown, but RETURN and INST).  None: DEL or INST, which move the rest
# of the line (line_shift_extra).  toolchain.basic.runner.io.chrout_extra picks them.
def _chrout_table(ranges: dict[tuple[int, int], int],
                  single: dict[int, int | None]) -> tuple[int | None, ...]:
    table: list[int | None] = [0] * 256
    for (first, last), extra in ranges.items():
        table[first : last + 1] = [extra] * (last - first + 1)
    for code, value in single.items():
        table[code] = value
    return tuple(table)


_PRINTABLE = {(0x60, 0x7F): 2, (0xA0, 0xFF): -18}  # $20-$5F: a letter's time; a quote toggles quote mode
CHROUT_PLAIN = _chrout_table(
    {**_PRINTABLE, (0x00, 0x1F): 74, (0x80, 0x9F): 80},
    {0x22: 13, 0x05: 64, 0x08: 81, 0x09: 83, 0x0D: -27, 0x0E: 71, 0x11: 18, 0x12: 76, 0x13: 171, 0x14: None,
     0x1B: 78, 0x1C: 53, 0x1D: -88, 0x1E: 20, 0x1F: 9, 0x81: -7, 0x8D: -33, 0x8E: 79, 0x90: 81, 0x91: -32,
     0x92: 84, 0x93: 37417, 0x94: None, 0x95: -18, 0x96: -29, 0x97: -40, 0x98: -51, 0x99: -62, 0x9A: -73,
     0x9B: -84, 0x9C: 41, 0x9D: -83, 0x9E: 4, 0x9F: 48})
CHROUT_QUOTED = _chrout_table({**_PRINTABLE, (0x00, 0x1F): -11, (0x80, 0x9F): -9},
                              {0x22: 9, 0x0D: -31, 0x8D: -29, 0x14: None})
CHROUT_INSERTING = _chrout_table({**_PRINTABLE, (0x00, 0x1F): -22, (0x80, 0x9F): 0},
                                 {0x22: 9, 0x0D: -35, 0x8D: -37, 0x94: None})
# DEL and INST move the characters from the cursor to the line's end (38 cycles a
# character), measured at columns 0, 10, 30 and 39 of a 40-column line; DEL
# at column 0 (with no line before it linked) and at the line's last column takes a path
# of its own.  INST at the last column, or on a line whose last character is not a
# space, can insert a row below: not counted (a scroll's work, rare in PRINT).
LINE_SHIFT_CHARACTER = 38


def line_shift_extra(code: int, column: int, last_column: int, in_mode: bool) -> int:
    """DEL's (``code`` $14) or INST's ($94) cycles beyond a letter's at ``column`` of
    a line ending at ``last_column`` (39 or 79); ``in_mode``: DEL in quote mode, INST
    in insert mode."""
    if code == 0x14:
        if column == 0:
            return -18
        if column >= last_column:
            return -99
        return LINE_SHIFT_CHARACTER * (last_column + 1 - column) - (102 if in_mode else 52)
    return LINE_SHIFT_CHARACTER * (last_column - column) - (85 if in_mode else 81)


def cycles(features: Counter[str]) -> int:
    """The cycles of a set of features."""
    total = 0.0
    for feature, count in features.items():
        total += count * weight(feature)
    return round(total)


def weight(feature: str) -> float:
    if feature in WEIGHTS:
        return WEIGHTS[feature]
    kind = feature.partition(":")[0]
    return UNMEASURED.get(kind, 0.0)


def number_features(text: bytes) -> Counter[str]:
    """What FIN ($BCF3) does with a number written in the program, step by step as the
    ROM does it (the values from toolchain/basic/floats.py, the ROM's own arithmetic):
    for each digit ($BD6A) MUL10 ($BAE2: nothing for 0, else 4x+x through FADD, a
    ``fin_carry`` when the sum carries out), FLOAT of the digit ($BC3C: a 0 is cheap,
    ``fin_zero_digit``; else one ``fin_float_bit`` per normalising left shift) and FADD
    ($B86A: nothing to add the first time, ``fin_first``; else the smaller operand
    shifted right by the exponents' difference, ``fin_align_byte`` per eight bits
    through $B983 and ``fin_align_bit`` per bit after, a ``fin_carry`` on a carry
    out); then a DIV10 ($BAFE, FDIV's 34-step loop) per digit after the point, with an
    ``fdiv_one`` for each quotient bit that subtracts ($BB5D), and ``exp`` for an
    exponent."""
    features: Counter[str] = Counter(num=1)
    fac = floats.ZERO
    after_point = exponent = False
    for byte in text:
        if byte == 0x2E:
            after_point = True
        elif byte == 0x45:
            exponent = True
        elif 0x30 <= byte <= 0x39 and not exponent:
            features["fin_digit"] += 1
            features["frac"] += after_point
            fac = _fin_digit(fac, byte - 0x30, features)
    if after_point:
        for _ in range(features["frac"]):
            fac = floats.round_fac(fac)
            features["fdiv_one"] += _quotient_ones(fac)
            fac = floats._divide10(fac)
    features["exp"] += exponent
    return features


def _fin_digit(fac: floats.Fac, digit: int, features: Counter[str]) -> floats.Fac:
    """One digit of FIN: MUL10, FLOAT of the digit, FADD; counts the steps' features."""
    rounded = floats.round_fac(fac)
    if rounded[0] == 0:
        features["fin_mul_zero"] += 1
        tenfold = rounded
    else:
        tenfold = floats._times10(fac)
        features["fin_carry"] += tenfold[0] - rounded[0] == 4  # 5x carried: one more shift
    if digit == 0:
        features["fin_zero_digit"] += 1
        return tenfold
    features["fin_float_bit"] += 8 - digit.bit_length()
    value = floats._from_integer(digit)
    if tenfold[0] == 0:
        features["fin_first"] += 1
        return value
    shift = abs(tenfold[0] - value[0])
    features["fin_align_byte"] += shift // 8
    features["fin_align_bit"] += shift % 8
    total = floats._add(floats._memory(tenfold), value)
    features["fin_carry"] += total[0] > max(tenfold[0], value[0])
    return total


def fout_features(value: float) -> Counter[str]:
    """What FOUT ($BDDD) does to print a number, step by step as the ROM does it, beyond
    the constant part of ``print_number``: nothing but a "0" for 0 (``fout_zero``,
    $BF04); else the multiply by 10**9 of a number below 1 (``fout_multiply``, and a
    ``fout_multiply_byte`` for each of its mantissa bytes after the first that is not 0:
    FMULT runs its bit loop for each, and shifts by a whole byte for a 0), the DIV10s
    (FDIV by ten: ``fout_divide10`` and an ``fdiv_one`` for each quotient bit that
    subtracts) and MUL10s (``fout_times10``) that bring it into 100000000..999999999
    (floats.fout_scaled: an FCOMP before each and after the last, counted in them and
    in ``print_number``); then the digit loop ($BE6A: it adds -10**8, +10**7, -10**6...
    until the sign turns, d + 1 times for a digit d at the first, third... place, 10 - d
    at the second, fourth...: ``fout_digit_step`` each), the trailing zeros after the
    point taken off ($BEC6: ``fout_zero_stripped``) and an E exponent written
    (``fout_exponent``).  A whole number below 10**9 has k digits and
    9 - k MUL10s: counted without the arithmetic."""
    if value == 0:
        return Counter(fout_zero=1)
    magnitude = abs(value)
    if magnitude < 1e9 and magnitude >= 1 and magnitude == int(magnitude):
        whole = int(magnitude)
        places = 9 - len(str(whole))
        nine_digits, point, exponent = whole * 10**places, 9 - places, 0
        features = Counter(fout_times10=places)
    else:
        features = Counter()

        def step(name: str, fac: floats.Fac) -> None:
            if name == "multiply":
                features["fout_multiply"] += 1
                features["fout_multiply_byte"] += sum(1 for part in floats.to_bytes(magnitude)[2:] if part)
            elif name == "divide10":
                features["fout_divide10"] += 1
                features["fdiv_one"] += _quotient_ones(floats.round_fac(fac))
            elif name == "times10":
                features["fout_times10"] += 1

        fac = floats.to_fac(magnitude)
        nine_digits, decimal_exponent = floats.fout_scaled(fac, step)
        point, exponent = floats.fout_point(decimal_exponent)
    digits = f"{nine_digits:09d}"
    features["fout_digit_step"] = sum(int(digit) + 1 if place % 2 == 0 else 10 - int(digit)
                                      for place, digit in enumerate(digits))
    after_point = digits[max(point, 0):]
    features["fout_zero_stripped"] = len(after_point) - len(after_point.rstrip("0"))
    features["fout_exponent"] = exponent != 0
    return features


_FOUT_CYCLES: dict[float, int] = {}


def _alternating_digit_sum(number: int) -> int:
    """The digits of ``number`` added and subtracted in turn, from its last one (added)."""
    total, sign = 0, 1
    while number:
        number, digit = divmod(number, 10)
        total += sign * digit
        sign = -sign
    return total


# A whole number's FOUT time without its steps (a counter's STR$ in a loop: Nikolaus
# takes STR$ of 3.2 million numbers, none twice), by its digits: the digit loop turns
# d + 1 times for a digit at an even place from the left, 10 - d at an odd one, so the
# time is one per number of digits k plus fout_digit_step times the digits' sum
# alternating from the first, which is that from the last times -1 for an even k; the
# five digits from the right and the four before them give their parts from a table
# (the fifth place from the right is odd: the part of those before it is subtracted).
_DIGIT_STEP = round(WEIGHTS["fout_digit_step"])
_THREE_DIGITS = tuple(_alternating_digit_sum(group) for group in range(1000))
_FIVE_DIGIT_TURNS = tuple(_DIGIT_STEP * (_THREE_DIGITS[group % 1000] - _THREE_DIGITS[group // 1000])
                          for group in range(100_000))
_WHOLE_SIGN = tuple(1 if digits % 2 else -1 for digits in range(10))
# (10**(k-1): its digits' alternating sum from the first is 1)
_WHOLE_BASE = (0, *(cycles(fout_features(float(10 ** (digits - 1)))) - _DIGIT_STEP
                    for digits in range(1, 10)))


# The same time by the digits before the last five (``high``, 1..9999) where there are
# any: their part and the number of digits (which sets the sign of the last five's part)
# looked up at once, _WHOLE_BASE[k] - _WHOLE_SIGN[k] * _FIVE_DIGIT_TURNS[high] and the
# table of the last five's turns with that sign, so that STR$ of a counter (Nikolaus'
# every pass) takes two look-ups instead of working out its number of digits, the sign
# and a product.  The negated turns share their few distinct values' objects.
_NEGATED = {turns: -turns for turns in set(_FIVE_DIGIT_TURNS)}
_FIVE_DIGIT_TURNS_NEGATED = tuple(_NEGATED[turns] for turns in _FIVE_DIGIT_TURNS)
_HIGH_DIGITS = tuple(5 + len(str(high)) if high else 0 for high in range(10_000))
_HIGH_BASE = tuple(_WHOLE_BASE[digits] - _WHOLE_SIGN[digits] * _FIVE_DIGIT_TURNS[high] if high else 0
                   for high, digits in enumerate(_HIGH_DIGITS))
_HIGH_LOW_TURNS = tuple(_FIVE_DIGIT_TURNS if _WHOLE_SIGN[digits] > 0 else _FIVE_DIGIT_TURNS_NEGATED
                        for digits in _HIGH_DIGITS)

# whole_fout_cycles's tables, for STR$, which works it out in line (io.install_fout)
WHOLE_FOUT_TABLES = (_WHOLE_BASE, _WHOLE_SIGN, _FIVE_DIGIT_TURNS, _HIGH_BASE, _HIGH_LOW_TURNS)


def whole_fout_cycles(whole: int, digits: int) -> int:
    """fout_cycles of a whole number 0 < ``whole`` < 10**9 of so many ``digits`` (its
    sign does not count), from the tables: the same cycles, without FOUT's steps."""
    return _WHOLE_BASE[digits] + _WHOLE_SIGN[digits] * (
        _FIVE_DIGIT_TURNS[whole % 100_000] - _FIVE_DIGIT_TURNS[whole // 100_000])


def fout_cycles(value: float) -> int:
    """The cycles of fout_features, as PRINT takes them when it prints a number."""
    magnitude = -value if value < 0.0 else value
    if 0.0 < magnitude < 1e9 and (whole := int(magnitude)) == magnitude:
        return whole_fout_cycles(whole, len(str(whole)))
    found = _FOUT_CYCLES.get(value)
    if found is None:
        found = cycles(fout_features(value))
        if len(_FOUT_CYCLES) < 65536:
            _FOUT_CYCLES[value] = found
    return found


def qint_features(value: float | None, typical: tuple[int, int] = (2, 4)) -> Counter[str]:
    """A number made an integer by QINT ($BC9B), as GETADR ($B7F7: POKE's, PEEK's, WAIT's
    and SYS's address) and GETBYT ($B79E: POKE's and WAIT's bytes) do: the mantissa
    shifted right until the point is behind it, by $A0 less the exponent: a
    ``qint_byte`` for each eight bits (SHIFTR's byte moves, $B983), a ``qint_bit`` for
    each bit after ($B9A6); nothing for 0.  ``value`` None (known only when the program
    runs): ``typical`` bytes and bits."""
    if value is None:
        shift_bytes, shift_bits = typical
        return Counter(qint_byte=shift_bytes, qint_bit=shift_bits)
    exponent = floats.to_fac(abs(value))[0] if value else 0
    if not 0x80 < exponent <= 0xA0:  # 0, a fraction or too large: no shifting worth counting
        return Counter()
    shift = 0xA0 - exponent
    return Counter(qint_byte=shift // 8, qint_bit=shift % 8)


def search_cycles(passed: list[int], target: int, forward: bool) -> float:
    """FNDLIN's ($A613) time to find line ``target`` past the lines ``passed``: from the
    line after the current one (``forward``: GOTO's $A8A3 start from TXTPTR's line end)
    or from the program's start; each line passed compares the high bytes of the
    numbers first ($A625) and the low bytes only when those are equal ($A62E), a
    ``line_skip`` or a ``line_skip_same``."""
    high = target >> 8
    same = sum(number >> 8 == high for number in passed)
    return (weight("search_forward" if forward else "search_back") + same * weight("line_skip_same")
            + (len(passed) - same) * weight("line_skip"))


def _quotient_ones(dividend: floats.Fac) -> int:
    """The quotient bits of FDIV's loop ($BB29-$BB77) dividing by ten that subtract."""
    divisor = floats.TEN[2] >> 8
    remainder = dividend[2] >> 8
    ones = 0
    for _ in range(34):
        if remainder >= divisor:
            remainder -= divisor
            ones += 1
        remainder <<= 1
    return ones


# -- the machine's time for BASIC's cycles --------------------------------------------------------
FRAME_CYCLES = 19_656  # PAL: 63 cycles a line, 312 lines (the 6569's datasheet)
# The CPU cycles a frame's bad lines take from the CPU while the screen is on: 25 text
# rows of 40 cycles each, and the cycles the CPU waits while BA is low before them.
# Measured: BASIC's loops on VICE take 1/0.946 the CPU cycles of c64tc's CPU (which
# has no bad lines) running the same ROM (tests/data/timing, bm2).
BAD_LINE_CYCLES = 1_060
# The KERNAL's interrupt handler ($FF48, $EA31-$EA86: the jiffy clock, the cursor
# blink, SCNKEY with no key pressed) on c64tc's CPU, for a machine without the ROMs,
# whose handler runs in Python and takes no cycles of its own.
STANDARD_IRQ_CYCLES = 270
JIFFY_CYCLES = 16_421  # CIA 1's timer A as the KERNAL sets it for PAL ($4025)


def stretch(screen_on: bool, irq_in_python: bool) -> float:
    """The machine's cycles per cycle of BASIC: the bad lines' stolen cycles while the
    screen is on, and the interrupt handler's when it takes no cycles of its own."""
    free = 1.0
    if screen_on:
        free -= BAD_LINE_CYCLES / FRAME_CYCLES
    if irq_in_python:
        free -= STANDARD_IRQ_CYCLES / JIFFY_CYCLES
    return 1.0 / free
