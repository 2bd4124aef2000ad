"""The run command's options object (issue 26, "a thin CLI"): every option of ``run`` and
``monitor`` is a field of RunOptions by the same name, so an option is declared once on
the command and once in its group, and reaches the code that uses it as that field."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from toolchain.cli.monitor import monitor_command
from toolchain.cli.run import run_command
from toolchain.cli.run_options import MachineOptions, MonitorOptions, RunOptions, SoundOptions


@pytest.mark.parametrize("command", [run_command, monitor_command], ids=["run", "monitor"])
def test_every_option_of_the_command_is_a_field(command: object) -> None:
    names = [param.name for param in command.params]  # type: ignore[attr-defined]
    assert set(names) <= set(RunOptions.parameter_names())
    if command is run_command:  # and run has them all
        assert sorted(names) == sorted(RunOptions.parameter_names())


def test_the_fields_take_clicks_defaults() -> None:
    """Options left out (monitor gives only some) are what run's click options default to."""
    params = run_command.make_context("run", ["x.prg"]).params
    assert RunOptions.from_params(params) == RunOptions(path="x.prg")
    assert RunOptions.from_params(params).machine.max_cycles == params["max_cycles"]


def test_params_go_to_their_groups() -> None:
    options = RunOptions.from_params({"path": "p.prg", "sys_address": 0x3400, "boot": True, "mute": True,
                                      "monitor": True, "label_files": ("a.lbl",)}, given=["boot"])
    assert options.sys_address == 0x3400 and options.given == {"boot"}
    assert options.machine == MachineOptions(boot=True)
    assert options.sound == SoundOptions(mute=True)
    assert options.monitoring == MonitorOptions(monitor=True, label_files=("a.lbl",))
    with pytest.raises(FrozenInstanceError):
        options.machine.boot = False  # type: ignore[misc]


def test_a_parameter_without_a_field_is_refused() -> None:
    with pytest.raises(TypeError, match="without a field: \\['fast'\\]"):
        RunOptions.from_params({"path": "p.prg", "fast": True})
