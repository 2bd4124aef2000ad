"""The C64's sound: the SID rendered by reSIDfp (the ``pyresidfp`` package) from the
writes a program makes, recorded into WAV files, played live, and SID tunes (the
High Voltage SID Collection's PSID/RSID files) played on the emulated C64.

* :mod:`.engine`: :class:`SidSound`, reSIDfp listening to c64tc's SID (its stamped
  write log), and answering for voice 3's read-back while it renders;
* :mod:`.output`: :class:`RunSound`, the sound of one run (``run --audio``, the live
  screen's sound);
* :mod:`.wav`: WAV files in and out (the standard library's ``wave``);
* :mod:`.playback`: live playback through ``sounddevice`` (an optional extra), or
  the one-line reason why the run is silent;
* :mod:`.psid`: SID tunes: the header, and the driver that calls init and play as it
  says.
"""

from toolchain.sound.engine import DEFAULT_MODEL, SAMPLE_RATE, SID_MODELS, SidSound, SoundUnavailable
from toolchain.sound.playback import Playback, open_playback
from toolchain.sound.wav import Sound, read_wav, wav_bytes, write_wav

__all__ = ["DEFAULT_MODEL", "SAMPLE_RATE", "SID_MODELS", "Playback", "SidSound", "Sound", "SoundUnavailable",
           "open_playback", "read_wav", "wav_bytes", "write_wav"]
