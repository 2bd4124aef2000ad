"""The monitor's commands on memory, files and the machine, in VICE 3.10's syntax and
with its output (vice/src/monitor/mon_memory.c, mon_file.c, monitor.c, and the chips'
dump functions: viciisc/vicii.c vicii_dump, core/ciacore.c ciacore_dump):

* ``a`` assemble (also VICE's assemble mode, whose prompt is the next address),
  ``f`` fill, ``h`` hunt (``xx`` any byte), ``c`` compare, ``t`` transfer;
* ``s``/``l`` save and load a PRG, ``bs``/``bl`` raw bytes: device 0 is a file here
  (``l`` and ``bl`` also read ``IMAGE:NAME``, as c64tc's other readers do; files are
  written atomically), device 8 the disk in drive 8 (``--disk``; its image file
  changes only with ``--write-disk``);
* ``io`` the chips' registers (VIC-II, SID, CIA 2, CIA 1 in VICE's order; with an
  address, that chip's state as VICE details it), ``bank`` the monitor's view of
  memory (cpu, ram, rom, io), ``reset`` the machine's RESET line.

Every command here reads and writes memory through the monitor's current bank, as
VICE's do.  A mixin of :class:`toolchain.monitor.session.Monitor`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolchain.c64.chips.cia import Cia
from toolchain.c64.chips.vic import Vic
from toolchain.c64.drive import Drive
from toolchain.diagnostics import UserError
from toolchain.monitor import display
from toolchain.monitor.assemble import AssemblyError, encode
from toolchain.monitor.syntax import Command, Expression, Instruction

if TYPE_CHECKING:
    from collections.abc import Callable

    from toolchain.c64.machine import C64
    from toolchain.cpu.core import CPU

__all__ = ["CommandError", "MemoryCommands"]

# VICE's banks for the C64, in its order (c64mem.c banknames); "default" is the CPU's view
BANK_LIST = ("default", "cpu", "ram", "rom", "io")
# the chips as VICE's 'io' lists them (c64mem.c mem_ioreg_list_get: the I/O sources in the
# order they registered, then CIA 1); measured on VICE 3.10: VIC-II, SID, CIA2, CIA1
IO_CHIPS = (("VIC-II", 0xD000, 0xD03F), ("SID", 0xD400, 0xD41F), ("CIA2", 0xDD00, 0xDD0F),
            ("CIA1", 0xDC00, 0xDC0F))
FILE_DEVICE, DRIVE_DEVICE = 0, 8


class CommandError(Exception):
    """A command that cannot be carried out; ``column`` is where in its line (0: the
    whole command)."""

    def __init__(self, message: str, column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


class MemoryCommands:
    """The commands of this module (mixed into Monitor)."""

    if TYPE_CHECKING:  # what the Monitor gives them
        machine: C64
        cpu: CPU
        bank: str
        dot: int
        assemble_at: int | None
        _writing: bool
        write: Callable[[str], None]

        def peek(self, address: int, bank: str = "cpu") -> int: ...

        def raster(self) -> tuple[int, int]: ...

        def _address(self, expression: Expression) -> int: ...

        def _value(self, expression: Expression) -> int: ...

        def _run_on(self) -> None: ...

    # -- memory through the current bank -------------------------------------------------------
    def view(self, address: int) -> int:
        """A byte as the monitor's commands read it: through the current bank."""
        return self.peek(address, self.bank)

    def poke(self, address: int, value: int) -> None:
        """A byte written as the monitor writes it (VICE's mem_bank_write): through the
        CPU's view with the cpu bank (I/O registers reach the chips); always RAM with the
        ram bank (also under a ROM or the I/O area); with the io bank the chips at
        $D000-$DFFF even where the CPU sees RAM; the rom and io banks ignore writes to
        the ROMs' addresses ($A000-$BFFF, $D000-$DFFF, $E000-$FFFF) and write RAM
        elsewhere.  Not a store of the program: no watchpoint sees it."""
        machine = self.machine
        address &= 0xFFFF
        bank = self.bank
        in_io = 0xD000 <= address < 0xE000
        if bank in ("rom", "io") and not (bank == "io" and in_io) and (
                0xA000 <= address < 0xC000 or address >= 0xD000):
            return  # a ROM's address: VICE drops the write
        self._writing = True
        try:
            if bank == "io" and in_io and not machine.map.io_shown():
                shown = machine.memory[address]  # the RAM or character ROM shown there stays
                machine.io.write(address, value, self.cpu.cycles)
                machine.map.io[address - 0xD000] = machine.memory[address]
                machine.memory[address] = shown
            elif bank != "cpu" and not (bank == "io" and in_io) and self._hidden(address):
                machine.map.under[address] = value  # RAM under a ROM or the I/O area
            else:
                machine.write(address, value)
        finally:
            self._writing = False
        machine.cancel_pause()

    def _hidden(self, address: int) -> bool:
        shown = self.machine.map
        for start, size in shown.AREAS.items():
            if start <= address < start + size:
                return shown.shown(start) != "ram"
        return False

    def _data_range(self, command: Command) -> tuple[int, int]:
        """A command's start address and the length of its range (the end may wrap)."""
        start = self._address(command.args["start"])  # type: ignore[arg-type]
        end = self._address(command.args["end"])  # type: ignore[arg-type]
        return start, (end - start) % 0x10000 + 1

    # -- a, f, h, c, t -------------------------------------------------------------------------------
    def _do_assemble(self, command: Command) -> None:
        address = self._address(command.args["address"])  # type: ignore[arg-type]
        instructions = command.args["instructions"]
        assert isinstance(instructions, list)
        self.assemble_at = address
        self.assemble(instructions)
        if len(instructions) > 1:
            self.assemble_at = None  # several instructions: no assemble mode (mon_parse.y)

    def assemble(self, instructions: list[Instruction]) -> None:
        """Instructions at the assemble address, each moving it on (and the dot with it);
        one that cannot be assembled says why and stays (VICE's messages)."""
        for instruction in instructions:
            assert self.assemble_at is not None
            address = self.assemble_at
            try:
                code = encode(instruction, address, lambda expression: self._value(expression))  # type: ignore[arg-type]
            except AssemblyError as exc:
                self.write(f"{exc}\n")
                return
            for offset, byte in enumerate(code):
                self.poke(address + offset, byte)
            self.assemble_at = self.dot = (address + len(code)) & 0xFFFF

    def _do_assemble_line(self, command: Command) -> None:
        """A line typed in assemble mode: its instructions."""
        instructions = command.args["instructions"]
        assert isinstance(instructions, list)
        self.assemble(instructions)

    def _do_assemble_end(self, command: Command) -> None:
        """The empty line that ends assemble mode."""
        self.assemble_at = None

    def _do_fill(self, command: Command) -> None:
        start, length = self._data_range(command)
        data = command.args["data"]
        assert isinstance(data, list)
        for offset in range(length):
            self.poke(start + offset, data[offset % len(data)][0])

    def _do_hunt(self, command: Command) -> None:
        start, length = self._data_range(command)
        data = command.args["data"]
        assert isinstance(data, list)
        if length < len(data):
            self.write("Invalid range.\n")
            return
        window = [self.view((start + offset) & 0xFFFF) for offset in range(length)]
        found = []
        for offset in range(length - len(data) + 1):
            if all(window[offset + index] & mask == value for index, (value, mask) in enumerate(data)):
                found.append(f"{(start + offset) & 0xFFFF:04x}\n")
        self.write("".join(found))

    def _do_compare(self, command: Command) -> None:
        start, length = self._data_range(command)
        destination = self._address(command.args["destination"])  # type: ignore[arg-type]
        lines = []
        for offset in range(length):
            source, target = (start + offset) & 0xFFFF, (destination + offset) & 0xFFFF
            first, second = self.view(source), self.view(target)
            if first != second:
                lines.append(f"${source:04x} ${target:04x}: {first:02x} {second:02x}\n")
        self.write("".join(lines))

    def _do_move(self, command: Command) -> None:
        start, length = self._data_range(command)
        destination = self._address(command.args["destination"])  # type: ignore[arg-type]
        data = [self.view((start + offset) & 0xFFFF) for offset in range(length)]  # read all first
        for offset, byte in enumerate(data):
            self.poke(destination + offset, byte)

    # -- files ------------------------------------------------------------------------------------
    def _drive(self, device: int) -> None:
        if device not in (FILE_DEVICE, DRIVE_DEVICE):
            raise CommandError(f"device {device}: c64tc's monitor reads and writes files on "
                                           "device 0 (a file here) and 8 (the disk in drive 8)")

    def _do_save(self, command: Command, raw: bool = False) -> None:
        name = str(command.args["file"])
        device = int(command.args["device"])  # type: ignore[call-overload]
        self._drive(device)
        start = self._address(command.args["start"])  # type: ignore[arg-type]
        end = self._address(command.args["end"])  # type: ignore[arg-type]
        if end < start:
            self.write("Start address must be below end address.\n")
            return
        data = bytes(self.view(address) for address in range(start, end + 1))
        if not raw:
            data = start.to_bytes(2, "little") + data
        if device == FILE_DEVICE:
            from toolchain.disk import parse_image_reference
            from toolchain.fileio import write_atomic

            if parse_image_reference(name) is not None:
                raise CommandError(f"'{name}' names a file on a disk image: device 0 writes "
                                               "files here; put the disk in drive 8 (--disk IMAGE) and save "
                                               "on device 8 (--write-disk keeps it)")

            try:
                write_atomic(name, data)
            except (OSError, UserError) as exc:
                raise CommandError(f"cannot write '{name}': {_reason(exc)}") from None
        else:
            self._save_on_drive(name, data)
        self.write(f"Saving file '{name}' from ${start:04x} to ${end:04x}\n")

    def _do_bsave(self, command: Command) -> None:
        self._do_save(command, raw=True)

    def _do_load(self, command: Command, raw: bool = False) -> None:
        name = str(command.args["file"])
        device = int(command.args["device"])  # type: ignore[call-overload]
        self._drive(device)
        data = self._read_file(name, device)
        if data is None:
            self.write(f"Cannot open '{name}'.\n")
            return
        given = command.args["address"]
        load_address = None
        if not raw:
            load_address = data[0] | data[1] << 8 if len(data) >= 2 else (data[0] if data else 0)
            data = data[2:]
        address = self._address(given) if isinstance(given, Expression) else load_address
        assert address is not None
        self.write(f"Loading '{name}' from {address:04X} ")
        for offset, byte in enumerate(data):
            self.poke(address + offset, byte)
        self.write(f"to {(address + len(data) - 1) & 0xFFFF:04X} ({len(data):04X} bytes)\n")

    def _do_bload(self, command: Command) -> None:
        self._do_load(command, raw=True)

    def _read_file(self, name: str, device: int) -> bytes | None:
        """A file's bytes (None: it cannot be opened, which VICE says as Cannot open)."""
        if device == DRIVE_DEVICE:
            return self._load_from_drive(name)
        from toolchain.disk import parse_image_reference
        from toolchain.fileio import is_file, read_bytes

        try:
            reference = parse_image_reference(name)
            if reference is not None:
                from toolchain.disk import read_disk_file

                return read_disk_file(reference).data
            if not is_file(name):
                return None
            return read_bytes(name)
        except (OSError, UserError):
            return None

    def _disk(self) -> Drive:
        """The drive on device 8 with a disk in it (VICE's vdrive for device 8)."""
        drive = self.machine.bus.drive(DRIVE_DEVICE)
        if drive is None or drive.empty:
            raise CommandError("device 8: no disk in drive 8 (--disk IMAGE puts one there; "
                                           "device 0 is a file here)")
        return drive

    def _save_on_drive(self, name: str, data: bytes) -> None:
        """As VICE's vdrive_iec_open with secondary address 1: the file written through
        the drive's DOS (the disk image changes in memory; --write-disk writes it back)."""
        drive = self._disk()
        petscii = _petscii_name(name)
        drive.open(1, petscii)
        if not drive.status_text().startswith("00"):
            raise CommandError(f"Cannot open '{name}': {drive.status_text()}")
        for byte in data:
            drive.listen_byte(1, byte)
        drive.close(1)
        if not drive.status_text().startswith("00"):
            raise CommandError(f"Saving for '{name}' failed: {drive.status_text()}")

    def _load_from_drive(self, name: str) -> bytes | None:
        """The file read through the drive's DOS with secondary address 0, as VICE's does."""
        drive = self._disk()
        drive.open(0, _petscii_name(name))
        if not drive.status_text().startswith("00"):
            drive.close(0)
            return None
        data = bytearray()
        while (read := drive.talk_byte(0)) is not None:
            data.append(read[0])
            if read[1]:
                break
        drive.close(0)
        return bytes(data)

    # -- io, bank, reset ----------------------------------------------------------------------------
    def _do_io(self, command: Command) -> None:
        given = command.args["address"]
        address = self._address(given) if isinstance(given, Expression) else 0
        out: list[str] = []
        machine = self.machine
        for index, (name, start, end) in enumerate(IO_CHIPS):
            if not (address < 2 or start <= address <= end):
                continue
            if address == 1 and index > 0:
                out.append("\n")
            out.append(f"{name}:\n")
            rows, self.dot = display.memory_rows(
                lambda where: machine.io.peek(where, self.cpu.cycles), start, end - start + 1)
            out.extend(row + "\n" for row in rows)
            if address > 0:
                out.append("\n")
                details = self._chip_details(name)
                out.append(details if details is not None else "No details available.\n")
        self.write("".join(out))

    def _chip_details(self, name: str) -> str | None:
        from toolchain.monitor.chips import cia_details, vic_details

        io = self.machine.io
        if name == "VIC-II":
            vic = io.vic
            assert isinstance(vic, Vic)
            line, cycle = self.raster()
            return vic_details(vic, self.cpu.cycles, line, cycle, io.cia2, self.machine.map.ram_byte)
        if name.startswith("CIA"):
            cia = io.cia1 if name == "CIA1" else io.cia2
            assert isinstance(cia, Cia)
            return cia_details(cia, self.cpu.cycles)
        return None  # the SID: VICE 3.10's reSID engine has none either (measured)

    def _do_bank(self, command: Command) -> None:
        bank = command.args["bank"]
        if bank is not None:
            self.bank = "cpu" if bank == "default" else str(bank)
            return
        shown = "".join(("*" if (name if name != "default" else "cpu") == self.bank else "") + name + " \t"
                        for name in BANK_LIST)
        self.write(f"Available banks (some may be equivalent to others):\n{shown}\n")

    def _do_reset(self, command: Command) -> None:
        """The RESET line (VICE: reset 0, or 1 a power cycle, which keeps nothing but the
        ROMs; c64tc's 1 is the same reset): the chips back to their reset state, the
        6510's port to inputs, the CPU through its reset sequence to the vector at
        $FFFC; then the monitor lets the machine run, as VICE's does."""
        kind = command.args["kind"]
        if kind not in (None, 0, 1):
            raise CommandError(f"reset {kind}: c64tc's drive is modelled at the level of its "
                                           "DOS, with no processor to reset (reset 0 or 1 resets the C64)")
        self.machine_reset()
        self._run_on()

    def machine_reset(self) -> None:
        """What the RESET line does: the chips cleared (fresh ones, as after power-on,
        keeping their wiring and whoever listens to their writes), the 6510's port all
        inputs (the pull-ups then show BASIC, KERNAL and I/O), and the CPU's reset
        sequence: three stack bytes skipped, interrupts off, the PC from $FFFC."""
        from toolchain.c64.chips.sid import Sid

        machine, cpu = self.machine, self.cpu
        io = machine.io
        vic, sid, cia1, cia2 = io.vic, io.sid, io.cia1, io.cia2
        assert isinstance(vic, Vic) and isinstance(sid, Sid)
        assert isinstance(cia1, Cia) and isinstance(cia2, Cia)
        fresh_vic, fresh_sid = Vic(vic.cycle_offset), Sid(sid.model)
        fresh_vic.write_log, fresh_sid.write_log = vic.write_log, sid.write_log
        fresh_vic.video = vic.video  # the machine's memory, as the VIC-II reads it
        fresh_vic.time = cpu.cycles
        fresh_vic.start_stalls(cpu.cycles)  # the cycles it takes from the CPU: counted from now
        chips = [Cia(old.ports, old.interrupt, old.mains_hz, old.mains_phase, old.name)
                 for old in (cia1, cia2)]
        for chip in chips:
            chip.time = cpu.cycles
        io.plug(fresh_vic, fresh_sid, chips[0], chips[1])
        machine.nmi_line = False
        machine.bus.reset()
        self._writing = True
        try:
            machine.write(0, 0)  # the port's direction register: all inputs
        finally:
            self._writing = False
        now = cpu.cycles
        for start, end in ((0xD000, 0xD400), (0xD400, 0xD800), (0xDC00, 0xDE00)):
            for address in range(start, end):  # the I/O area's bytes mirror the chips
                value = io.peek(address, now)
                if machine.map.io_shown():
                    machine.memory[address] = value
                machine.map.io[address - 0xD000] = value
        cpu.sp = (cpu.sp - 3) & 0xFF
        cpu.i = 1
        cpu.pc = self.peek(0xFFFC) | self.peek(0xFFFD) << 8
        self.dot = cpu.pc


def _petscii_name(name: str) -> bytes:
    """A file name as VICE hands it to the drive (charset_p_topetscii): letters typed in
    lower case are the C64's unshifted letters, at most 16 characters."""
    from toolchain.petscii import char_to_petscii

    try:
        return bytes(char_to_petscii(character) for character in name[:16])
    except ValueError as exc:
        raise CommandError(f"'{name}': {exc}") from None


def _reason(exc: BaseException) -> str:
    if isinstance(exc, UserError):
        return exc.report().split(": error: ", 1)[-1]
    return getattr(exc, "strerror", None) or str(exc)
