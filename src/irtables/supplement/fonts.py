"""The font of the supplement's figures: DejaVu Sans cut down once to what figures show.

Publishers want every font of a figure embedded and none of Type 3, so figures are saved
with TrueType (Type 42) fonts, which matplotlib subsets for each PDF with fontTools. From
matplotlib's own DejaVu Sans (756 kB, 6,000 glyphs, large layout tables) that costs about
0.1 s a figure; from this cut-down copy (Latin, Greek, Cyrillic, punctuation and
mathematical symbols: about 1,300 glyphs, and no OpenType layout tables) it costs about
0.01 s. The copy is made once
and kept in matplotlib's cache folder under a name that holds a hash of what it is made
from, so a new matplotlib or fontTools makes a new one, and one FreeType cannot read is
made again (the folder is trusted as for matplotlib's own font list there). Characters
it lacks (a system named in Armenian, say) are drawn from the full DejaVu Sans, through
matplotlib's font fallback.

The copy has no OpenType layout tables (GSUB, GPOS, GDEF) and no MATH table. Subsetting
those is most of fontTools' work on a figure (about 0.06 s of 0.07 s), and figures do not
need them: without GPOS, matplotlib's text shaping (libraqm, HarfBuzz) kerns from the
legacy ``kern`` table, which is kept and holds the same pairs (the text is drawn to the
same pixels); without GSUB there are no ligatures, which matplotlib would put in a font
subset of their own (``ff`` in "difference": a second subset per figure).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from functools import cache
from pathlib import Path

#: Family name of the cut-down copy, as matplotlib's font manager knows it.
FAMILY = "irtables DejaVu Sans"
#: The full font, for the characters the copy does not have.
FALLBACK = "DejaVu Sans"
#: What the copy keeps: (first, last) code points, inclusive.
RANGES = (
    (0x20, 0x7E),  # ASCII
    (0xA0, 0x17F),  # Latin-1 Supplement, Latin Extended-A
    (0x370, 0x3FF),  # Greek (τ², Δ)
    (0x400, 0x4FF),  # Cyrillic
    (0x2000, 0x209F),  # General Punctuation, super- and subscripts
    (0x2190, 0x22FF),  # Arrows, Mathematical Operators (− ≤ ≥ ±)
)
#: Tables left out of the copy: OpenType layout (ligatures, GPOS kerning) and math.
DROPPED_TABLES = ("GSUB", "GPOS", "GDEF", "MATH", "FFTM")
_RECIPE = "2"  # bumped when how the copy is made changes (what it keeps is in the key)


def font_families() -> list[str]:
    """The ``font.family`` of the figures: the cut-down copy, then the full font.

    Falls back to the full font alone if the copy cannot be made (no cache folder).
    """
    return [FAMILY, FALLBACK] if _registered() else [FALLBACK]


@cache
def _registered() -> bool:
    """Make (or find) the copy and register it with matplotlib, once per process."""
    from matplotlib import font_manager

    try:
        path = reduced_font()
        font_manager.fontManager.addfont(str(path))
    except (OSError, RuntimeError, ValueError):
        return False
    return True


def reduced_font() -> Path:
    """The path of the cut-down copy of DejaVu Sans, made if it is not there yet."""
    import fontTools
    import matplotlib

    source = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    data = source.read_bytes()
    key = hashlib.sha256()
    for part in (
        fontTools.version,
        matplotlib.__version__,
        _RECIPE,
        repr((RANGES, DROPPED_TABLES)),
    ):
        key.update(part.encode() + b"\0")
    key.update(data)
    target = Path(matplotlib.get_cachedir()) / f"irtables-dejavusans-{key.hexdigest()[:16]}.ttf"
    if not _usable(target):  # not made yet, or damaged: made again
        _write_atomically(target, _cut_down(source))
    return target


def _usable(path: Path) -> bool:
    """Whether ``path`` is a font FreeType can read, of the family :data:`FAMILY`."""
    from matplotlib.ft2font import FT2Font

    try:
        return bool(FT2Font(str(path)).family_name == FAMILY)
    except (OSError, RuntimeError, ValueError):
        return False


def _cut_down(source: Path) -> bytes:
    """DejaVu Sans with the characters of :data:`RANGES` only, renamed to :data:`FAMILY`
    (the PostScript name stays ``DejaVuSans``), without the tables of
    :data:`DROPPED_TABLES`; hinting, the ``kern`` table and the font's own timestamp
    kept, so that the bytes depend on the source font alone."""
    import io

    from fontTools import subset

    options = subset.Options()
    options.glyph_names = True
    options.recommended_glyphs = True
    options.notdef_outline = True
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.legacy_kern = True
    options.drop_tables += list(DROPPED_TABLES)
    font = subset.load_font(io.BytesIO(source.read_bytes()), options)
    subsetter = subset.Subsetter(options=options)
    subsetter.populate(unicodes=[c for first, last in RANGES for c in range(first, last + 1)])
    subsetter.subset(font)
    for record in font["name"].names:
        if record.nameID in (1, 16):  # family, typographic family
            record.string = FAMILY
        elif record.nameID == 4:  # full name
            record.string = f"{FAMILY} Book"
    buffer = io.BytesIO()
    font.save(buffer)
    font.close()
    return buffer.getvalue()


def _write_atomically(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=target.name, suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
