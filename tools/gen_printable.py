"""Write core/rules/src/printable.rs: the code points Python's `str.isprintable()` refuses.

The native engine echoes strings in its error messages as Python's `repr` does, escaping
exactly the characters Python deems unprintable; this table is taken from the running Python's
Unicode database (`python tools/gen_printable.py` rewrites it).
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

TARGET = Path(__file__).resolve().parents[1] / "core" / "rules" / "src" / "printable.rs"


def unprintable_ranges() -> list[tuple[int, int]]:
    """Inclusive ranges of the code points (surrogates aside) that are not printable."""
    ranges: list[tuple[int, int]] = []
    for code in range(sys.maxunicode + 1):
        if 0xD800 <= code <= 0xDFFF or chr(code).isprintable():
            continue
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return ranges


def render(ranges: list[tuple[int, int]]) -> str:
    """The Rust module holding `ranges`."""
    rows = "\n".join(f"    (0x{a:04x}, 0x{b:04x})," for a, b in ranges)
    return (
        "//! The characters Python's `str.isprintable()` refuses (Unicode "
        f"{unicodedata.unidata_version}), as sorted\n"
        "//! inclusive ranges. Written by `tools/gen_printable.py`: do not edit.\n\n"
        "/// Sorted, disjoint, inclusive ranges of unprintable code points.\n"
        f"pub const UNPRINTABLE: [(u32, u32); {len(ranges)}] = [\n{rows}\n];\n\n"
        "/// True when Python prints `c` as itself in a `repr`.\n"
        "pub fn is_printable(c: char) -> bool {\n"
        "    let code = u32::from(c);\n"
        "    UNPRINTABLE\n"
        "        .binary_search_by(|&(low, high)| {\n"
        "            if high < code {\n"
        "                std::cmp::Ordering::Less\n"
        "            } else if low > code {\n"
        "                std::cmp::Ordering::Greater\n"
        "            } else {\n"
        "                std::cmp::Ordering::Equal\n"
        "            }\n"
        "        })\n"
        "        .is_err()\n"
        "}\n"
    )


if __name__ == "__main__":
    TARGET.write_text(render(unprintable_ranges()))
    print(f"wrote {TARGET}")
