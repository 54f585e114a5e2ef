"""occ.OccError: the one exception the package raises for bad input."""

from __future__ import annotations


class OccError(ValueError):
    """A call libocc or libocc-inspect refused, with the core's message.

    ``str(err)`` is the core's one line ("threads 1100 exceed the 1024 per
    block of sm_90"); ``status`` names the occ_status ("invalid argument"),
    ``code`` is its number and ``field`` the input at fault ("threads"),
    or None where the core names none.
    """

    def __init__(
        self, message: str, *, status: str = "", code: int = 0, field: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.field = field
