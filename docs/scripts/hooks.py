"""MkDocs hooks: the reference pages are generated from the code when the site is built."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

from mkdocs.structure.files import File, Files


def load_reference() -> ModuleType:
    """``reference.py`` beside this file, loaded without touching ``sys.path``."""
    path = Path(__file__).resolve().parent / "reference.py"
    spec = importlib.util.spec_from_file_location("irtables_docs_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def on_files(files: Files, config: Any) -> Files:
    """Add every reference page, generated now."""
    reference = load_reference()
    for path in reference.PAGES:
        files.append(File.generated(config, path, content=reference.page(path)))
    return files
