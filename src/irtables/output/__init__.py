"""Writing outputs: atomic, and never over a file irtables did not generate."""

from __future__ import annotations

from irtables.output.writers import WriteStatus, is_generated, sha256_hex, write_atomic

__all__ = ["WriteStatus", "is_generated", "sha256_hex", "write_atomic"]
