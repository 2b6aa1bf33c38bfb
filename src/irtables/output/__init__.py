"""Writing outputs: atomic, and never over a file irtables did not generate."""

from __future__ import annotations

from typing import TYPE_CHECKING

from irtables._lazy import lazy_exports

if TYPE_CHECKING:
    from irtables.output.writers import WriteStatus, is_generated, sha256_hex, write_atomic

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "irtables.output.writers": (
            "WriteStatus",
            "is_generated",
            "sha256_hex",
            "write_atomic",
        ),
    },
)

__all__ = ["WriteStatus", "is_generated", "sha256_hex", "write_atomic"]
