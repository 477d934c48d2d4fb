"""The bytes of files, to show that a refused command wrote nothing."""

from __future__ import annotations

from pathlib import Path


def snapshot(*paths: Path) -> dict[str, bytes]:
    """Every file at or under ``paths`` (missing ones give nothing), by path, with its bytes."""
    files = {}
    for path in paths:
        found = [path] if path.is_file() else sorted(path.rglob("*")) if path.is_dir() else []
        files.update({str(file): file.read_bytes() for file in found if file.is_file()})
    return files
