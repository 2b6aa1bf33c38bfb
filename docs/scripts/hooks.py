"""MkDocs hooks: the reference pages are generated from the code when the site is built."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reference


def on_files(files: Files, config: Any) -> Files:
    """Add every page of :data:`reference.PAGES`, generated now."""
    for path in reference.PAGES:
        files.append(File.generated(config, path, content=reference.page(path)))
    return files
