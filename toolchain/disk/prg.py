"""PRG files: a two-byte little-endian load address followed by the bytes."""

from __future__ import annotations

from dataclasses import dataclass

from toolchain.diagnostics import UserError


@dataclass(frozen=True, slots=True)
class Prg:
    load_address: int
    data: bytes

    @property
    def end_address(self) -> int:
        """One past the last byte loaded."""
        return self.load_address + len(self.data)

    def to_bytes(self) -> bytes:
        return self.load_address.to_bytes(2, "little") + self.data

    @classmethod
    def from_bytes(cls, raw: bytes, path: str = "<prg>") -> Prg:
        if len(raw) < 2:
            raise UserError.single(path, f"not a PRG file: {len(raw)} byte{'s' if len(raw) != 1 else ''}, "
                                   "but a PRG starts with a two-byte load address")
        load = int.from_bytes(raw[:2], "little")
        if load + len(raw) - 2 > 0x10000:
            raise UserError.single(path, f"PRG does not fit in memory: {len(raw) - 2} bytes loaded at "
                                   f"${load:04X} run past $FFFF")
        return cls(load, bytes(raw[2:]))
