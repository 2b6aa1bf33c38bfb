"""Writing outputs: all or nothing, inside the output folder, never over a file irtables
did not write (:mod:`.writers`), with file names from :mod:`irtables.base.filenames`, paths
checked by :mod:`irtables.base.paths` and the record of written files in
:mod:`irtables.base.record`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from irtables.base.lazy import lazy_exports

if TYPE_CHECKING:
    from irtables.base.record import file_sha256, sha256_hex
    from irtables.output.writers import (
        WriteStatus,
        Written,
        check_destination,
        write_atomic,
        write_files,
    )

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "irtables.base.record": ("file_sha256", "sha256_hex"),
        "irtables.output.writers": (
            "WriteStatus",
            "Written",
            "check_destination",
            "write_atomic",
            "write_files",
        ),
    },
)

__all__ = [
    "WriteStatus",
    "Written",
    "check_destination",
    "file_sha256",
    "sha256_hex",
    "write_atomic",
    "write_files",
]
