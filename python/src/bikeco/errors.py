"""The one exception type that the command line turns into a message and an exit code."""

from __future__ import annotations


class BikecoError(Exception):
    """A problem with the user's input (device, profile, records, budget).

    The command line prints ``bikeco: error: <message>`` and exits with ``exit_code``;
    it never shows a traceback for these.
    """

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class NothingFitsError(BikecoError):
    """No accelerator configuration fits the device under the given cap."""

    def __init__(self, message: str) -> None:
        super().__init__(message, exit_code=3)
