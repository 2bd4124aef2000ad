"""The BASIC runner on the 64'er corpus (../shared/corpus/basic): every listing runs
until it ends, waits for input, stops on a C64 error or reaches the limit, never with
an internal error; the DATA loaders poke exactly the bytes of the derived dumps."""

from __future__ import annotations

import pytest

from tests.conftest import SHARED, shared_path
from toolchain.c64.machine import C64
from toolchain.c64.run import Keyboard, Stop, load_program, run_program

CORPUS = SHARED / "corpus" / "basic"
LISTINGS = sorted(path.name for path in CORPUS.glob("*.txt")) if CORPUS.is_dir() else ["absent"]


def run_listing(name: str) -> tuple[C64, Stop, str]:
    path = shared_path("corpus", "basic", name)
    # BASIC's time is bounded by the statement groups, each SYS by 2 million cycles
    result, machine = run_program(load_program(path), Keyboard(""), max_cycles=2_000_000_000,
                                  max_statements=20_000, max_call_cycles=2_000_000)
    return machine, result.stop, result.message


@pytest.mark.parametrize("name", LISTINGS)
def test_every_corpus_listing_runs_without_internal_errors(name: str) -> None:
    _, stop, message = run_listing(name)
    assert isinstance(stop, Stop) and message


# loader -> whether its run leaves the derived dump's bytes in memory
LOADERS = {
    "8409_list-stop": True, "8412_datasette_musik": True, "8412_stringy": True,
    "8510_speichertransf": True, "8606_erg.pseudo-scrol": True, "8609_codeumwandlung": True,
    # as printed, its POKE is behind a REM (line 40): only the checksum is computed, so
    # the SYS in line 70 meets empty memory on a real C64 too
    "8409_screen_change": False,
}


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_data_loaders_poke_the_dumped_bytes(name: str) -> None:
    dump = shared_path("corpus", "mse", "derived", f"{name}.bin").read_bytes()
    load_address, data = dump[0] | dump[1] << 8, dump[2:]
    machine, stop, message = run_listing(f"{name}.txt")
    in_memory = bytes(machine.memory[load_address : load_address + len(data)])
    assert (in_memory == data) is LOADERS[name], message


def test_screen_change_as_printed_never_pokes() -> None:
    _, stop, message = run_listing("8409_screen_change.txt")
    assert stop is Stop.BRK
    assert message == "SYS 49152: BRK at $C000: the C64's warm start (screen cleared, READY.)"


def test_a_rem_typed_without_its_keyword_is_a_syntax_error_when_run() -> None:
    _, stop, message = run_listing("8412_beispiel.txt")
    assert stop is Stop.ERROR and message == "?SYNTAX  ERROR IN 120"


