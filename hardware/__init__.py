"""The physical parts of the table: camera sources and GPIO buttons and LEDs, each behind a small
protocol with a real implementation. Nothing here imports the rest of the project.

- :mod:`hardware.camera`: ``open_camera(name)`` chooses a source (``auto``, ``picamera2[:N]``,
  ``opencv[:N|:PATH]``, ``replay[:PATH]``).
- :mod:`hardware.sources`: the ``CameraSource`` protocol, ``OpenCVSource``, ``ReplaySource``.
- :mod:`hardware.picam`: ``PiCamera2Source``, the only module that imports picamera2 (lazily).
- :mod:`hardware.frames`: ``FrameHolder`` (latest frame, never the same twice) and ``CaptureLoop``
  (survives a lost camera, reports ``CameraStatus``).
- :mod:`hardware.buttons`: ``TableButtons`` (CONFIRM, NEXT, UNDO held) and the pure ``PressInterpreter``.
- :mod:`hardware.led`: ``StatusLED`` (off, waiting, pending, problem).
- :mod:`hardware.sdnotify`: ``Notifier`` for systemd (READY, WATCHDOG, STATUS, STOPPING).
- :mod:`hardware.errors`: exceptions and warnings.

Submodules are imported on demand, so ``import hardware`` costs nothing.
"""
