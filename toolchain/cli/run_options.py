"""What ``c64tc run`` (and ``c64tc monitor``, which is ``run --monitor``) was asked to do:
one frozen object, made from click's parameters in one place
(:meth:`RunOptions.from_params`) and taken by the machine's set-up, the dialogue, the
live screen, the pictures, the sound and the monitors.  An option is a click option
on the command and a field here of the same name; nothing else lists them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import click

from toolchain.c64.run import DEFAULT_RUN_CYCLES

if TYPE_CHECKING:
    from toolchain.c64.roms import RomSet


@dataclass(frozen=True)
class MachineOptions:
    """The C64 the program runs on: its ROMs, its devices, how it starts and its limits."""

    roms_dir: str | None = None
    no_roms: bool = False
    boot: bool = False
    stop_on_brk: bool = False
    disk_path: str | None = None
    no_drive: bool = False
    write_disk: bool = False
    printer_path: str | None = None
    max_cycles: int = DEFAULT_RUN_CYCLES
    max_statements: int | None = None

    def find_roms(self) -> RomSet | None:
        """The ROMs the C64 runs: --roms DIR, else those c64tc finds (C64TC_ROMS, the VICE
        on the PATH); None (c64tc's models) with --no-roms or where none are found."""
        from toolchain.c64.roms import find_roms

        if self.no_roms and self.roms_dir is not None:
            raise click.UsageError("--roms and --no-roms cannot go together")
        return None if self.no_roms else find_roms(Path(self.roms_dir) if self.roms_dir else None)


@dataclass(frozen=True)
class DialogueOptions:
    """What the user types (without them: the live screen, a terminal or a pipe)."""

    input_text: str | None = None
    input_file: str | None = None


@dataclass(frozen=True)
class OutputOptions:
    """What the run prints and writes besides its summary: the screen in one of its
    forms, a trace, the compiled Python, pictures."""

    screen: bool = False
    transcript: bool = False
    raw: bool = False
    trace: bool = False
    dump_python: bool = False
    screenshot: str | None = None
    screenshot_every: int | None = None
    film_path: str | None = None

    def shows(self) -> list[str]:
        """The options given that each choose what is printed of the screen."""
        return [name for name, given in (("--screen", self.screen), ("--transcript", self.transcript),
                                         ("--raw", self.raw)) if given]


@dataclass(frozen=True)
class LiveOptions:
    """The live screen's looks and pace."""

    warp: bool = False
    ascii_glyphs: bool = False


@dataclass(frozen=True)
class SoundOptions:
    """The SID heard, recorded or played (and which song of a SID tune)."""

    audio_path: str | None = None
    sid_model: str = "8580"
    sample_rate: int = 44_100
    mute: bool = False
    song: int | None = None


@dataclass(frozen=True)
class MonitorOptions:
    """The machine-code monitor (--monitor) and BASIC's break lines (--break-line)."""

    monitor: bool = False
    monitor_commands: str | None = None
    label_files: tuple[str, ...] = ()
    break_lines: tuple[int, ...] = ()


@dataclass(frozen=True)
class RunOptions:
    """A run's options: the program, then each group by what it concerns.  ``given``
    names the options the user gave (not left at their defaults), for defaults that
    depend on the program: a SID tune plays on its own SID model and for three
    minutes unless told."""

    path: str
    errata: tuple[str, ...] = ()
    sys_address: int | None = None
    machine: MachineOptions = field(default_factory=MachineOptions)
    dialogue: DialogueOptions = field(default_factory=DialogueOptions)
    outputs: OutputOptions = field(default_factory=OutputOptions)
    live: LiveOptions = field(default_factory=LiveOptions)
    sound: SoundOptions = field(default_factory=SoundOptions)
    monitoring: MonitorOptions = field(default_factory=MonitorOptions)
    given: frozenset[str] = frozenset()

    GROUPS: ClassVar[dict[str, type]] = {
        "machine": MachineOptions, "dialogue": DialogueOptions, "outputs": OutputOptions,
        "live": LiveOptions, "sound": SoundOptions, "monitoring": MonitorOptions,
    }
    OWN: ClassVar[tuple[str, ...]] = ("path", "errata", "sys_address")

    @classmethod
    def from_params(cls, params: Mapping[str, Any], given: Iterable[str] = ()) -> RunOptions:
        """The options object of click's parameters (by name; a name no group has is a
        programming error, so that an option cannot be declared and then lost)."""
        unknown = set(params) - set(cls.parameter_names())
        if unknown:
            raise TypeError(f"run options without a field: {sorted(unknown)}")
        groups = {name: group(**{f.name: params[f.name] for f in fields(group) if f.name in params})
                  for name, group in cls.GROUPS.items()}
        own = {name: params[name] for name in cls.OWN if name in params}
        return cls(**own, **groups, given=frozenset(given))

    @classmethod
    def parameter_names(cls) -> list[str]:
        """Every option's name, as click's parameters are named."""
        return [*cls.OWN, *(f.name for group in cls.GROUPS.values() for f in fields(group))]

    def inputs(self) -> list[str | None]:
        """The files the run reads its program and typed input from ('-': standard input)."""
        return [self.path, *self.errata, self.dialogue.input_file]
