#!/usr/bin/env python3
"""Generates Sources/CMMSearchFold/fold_table.c: the search-key folding as a lookup table.

Usage: python3 tools/gen_fold_table.py

The folding is defined by fold_scalar in ../shared/peers/fold.py (beside the package). Since fold
maps every scalar independently, the whole function is the list of scalars whose fold differs from
themselves. The table is as exact as the Unicode data of the Python that runs this script; its
version is recorded in the output so the Swift side can report it.
"""
import importlib.util
import sys
import unicodedata
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
REFERENCE = PACKAGE_ROOT.parent / "shared" / "peers" / "fold.py"
OUTPUT = PACKAGE_ROOT / "Sources" / "CMMSearchFold" / "fold_table.c"
COMMAND = "python3 tools/gen_fold_table.py"
LINE_WIDTH = 112
# Pages of 256 scalars in U+0000 ... U+10FFFF.
PAGE_COUNT = 0x110000 >> 8


def load_fold_scalar():
    if not REFERENCE.is_file():
        sys.exit(f"gen_fold_table.py: the reference folding {REFERENCE} is missing "
                 "(the repository's shared/ directory must sit beside the package)")
    spec = importlib.util.spec_from_file_location("fold", REFERENCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.fold_scalar


def folded_scalars(fold_scalar):
    """(scalar, UTF-8 of its fold) for every scalar that does not fold to itself, in scalar order."""
    for scalar in range(0x110000):
        if 0xD800 <= scalar <= 0xDFFF:
            continue
        text = chr(scalar)
        folded = fold_scalar(text)
        if folded != text:
            yield scalar, folded.encode("utf-8")


def c_array(values, format_value):
    """The elements of a C initializer, wrapped at LINE_WIDTH columns (no spaces: the file is big)."""
    lines, line = [], "    "
    for value in values:
        item = f"{format_value(value)},"
        if len(line) + len(item) > LINE_WIDTH:
            lines.append(line)
            line = "    "
        line += item
    lines.append(line)
    return "\n".join(lines)


def render(entries):
    scalars = [scalar for scalar, _ in entries]
    offsets = [0]
    pool = bytearray()
    for _, replacement in entries:
        pool += replacement
        offsets.append(len(pool))
    # Where each page of 256 scalars starts among the sorted entries: a lookup searches its page's
    # entries only (at most 256, near one another) instead of all of them.
    assert len(scalars) < 1 << 16, "mms_fold_page_first is uint16_t"
    page_first = [0] * (PAGE_COUNT + 1)
    for scalar in scalars:
        page_first[(scalar >> 8) + 1] += 1
    for page in range(PAGE_COUNT):
        page_first[page + 1] += page_first[page]
    # Pages none of whose scalars folds to an ASCII byte (page 0, ASCII itself, is not one): a name
    # made of them and ASCII separators has no key that starts with an ASCII letter or digit.
    ascii_free = [1] * PAGE_COUNT
    ascii_free[0] = 0
    for scalar, replacement in entries:
        if any(byte < 0x80 for byte in replacement):
            ascii_free[scalar >> 8] = 0
    ascii_free_bits = [sum(ascii_free[8 * i + bit] << bit for bit in range(8)) for i in range(PAGE_COUNT // 8)]
    version = unicodedata.unidata_version
    return f"""\
// GENERATED FILE, do not edit: run `{COMMAND}` from the package root.
// Source: fold_scalar of ../shared/peers/fold.py with Python {sys.version.split()[0]},
// Unicode {version} (unicodedata.unidata_version).
// {len(scalars)} scalars fold to something other than themselves; their folds take {len(pool)} bytes of UTF-8.

#include "mms_fold.h"

#define MMS_FOLD_ENTRY_COUNT {len(scalars)}

// Sorted, for binary search.
static const uint32_t mms_fold_scalars[MMS_FOLD_ENTRY_COUNT] = {{
{c_array(scalars, lambda v: f"0x{v:X}")}
}};

// The entries of the scalars 256 * p ..< 256 * (p + 1) are mms_fold_scalars[mms_fold_page_first[p] ..<
// mms_fold_page_first[p + 1]].
static const uint16_t mms_fold_page_first[{PAGE_COUNT + 1}] = {{
{c_array(page_first, str)}
}};

// The fold of mms_fold_scalars[i] is mms_fold_pool[mms_fold_offsets[i] ..< mms_fold_offsets[i + 1]].
static const uint32_t mms_fold_offsets[MMS_FOLD_ENTRY_COUNT + 1] = {{
{c_array(offsets, str)}
}};

static const uint8_t mms_fold_pool[{max(len(pool), 1)}] = {{
{c_array(list(pool), str)}
}};

// Bit p % 8 of byte p / 8 is set when no scalar 256 * p ..< 256 * (p + 1) folds to an ASCII byte
// (those not in the table fold to themselves, none of them ASCII; page 0 is ASCII's own).
static const uint8_t mms_fold_page_ascii_free[{PAGE_COUNT // 8}] = {{
{c_array(ascii_free_bits, str)}
}};

int mms_fold_is_ascii_free(uint32_t scalar) {{
    return scalar <= 0x10FFFF && (mms_fold_page_ascii_free[scalar >> 11] >> ((scalar >> 8) & 7) & 1);
}}

int mms_fold_lookup(uint32_t scalar, const uint8_t **bytes, size_t *length) {{
    if (scalar > 0x10FFFF) {{
        return 0;
    }}
    size_t low = mms_fold_page_first[scalar >> 8], high = mms_fold_page_first[(scalar >> 8) + 1];
    while (low < high) {{
        size_t middle = low + (high - low) / 2;
        uint32_t candidate = mms_fold_scalars[middle];
        if (candidate < scalar) {{
            low = middle + 1;
        }} else if (candidate > scalar) {{
            high = middle;
        }} else {{
            *bytes = mms_fold_pool + mms_fold_offsets[middle];
            *length = mms_fold_offsets[middle + 1] - mms_fold_offsets[middle];
            return 1;
        }}
    }}
    return 0;
}}

const char *mms_fold_unicode_version(void) {{
    return "{version}";
}}
"""


def main():
    entries = list(folded_scalars(load_fold_scalar()))
    text = render(entries)
    OUTPUT.write_text(text, encoding="utf-8")
    pool_size = sum(len(replacement) for _, replacement in entries)
    print(f"{OUTPUT.relative_to(PACKAGE_ROOT)}: {len(entries)} entries, {pool_size}-byte pool, "
          f"Unicode {unicodedata.unidata_version}, {len(text.encode('utf-8'))} bytes")


if __name__ == "__main__":
    main()
