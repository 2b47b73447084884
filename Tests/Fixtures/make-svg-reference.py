#!/usr/bin/env python3
"""Writes svg-reference.tsv: what rsvg-convert (Debian 12's librsvg 2.54, package librsvg2-bin) renders for each
SVG fixture, as the straight-alpha RGBA8 bytes' SHA-256 (read back with Pillow).

Rows: file, box, width, height, sha256. box "-" is the natural size, WxH the document fitted inside that box with
its aspect kept, rounded. The natural size follows SVGCoder's documented rule, computed here from the root
element's attributes: width and height in CSS pixels at 96 dpi; a missing or relative one from the other and the
viewBox's aspect; neither: the viewBox's size; no viewBox either: a 512 px square. At the natural size rsvg-convert
is given no size: it draws at the natural scale into a canvas rounded up, and the script checks that canvas is the
size the rule gives. Where the rule is not rsvg-convert's own (one side and no viewBox; no size and no viewBox:
rsvg-convert measures the drawing's extents), it renders a copy whose root carries the natural size. In a box,
the size asked for goes to rsvg-convert as -w/-h, which stretches the document to exactly that size.
rsvg-convert reads each document from standard input, with no base file, so that it resolves no external reference
(images, CSS, `<use>`/`<tref>` of other files) either: SVGCoder never does (svg/librsvg/svg11-struct-use-01-t.svg
refers to three other files; rendered from its path rsvg-convert would load them, 30.3 dB away).
resvg/ fixtures are asked for at 300x300 (the size of resvg's own reference PNGs beside them); peers/ fixtures at
their natural size and in a 128x128 box; librsvg/ fixtures (Adwaita icons with fractional sizes, W3C SVG 1.1
tests sized by their viewBox alone, with markers, patterns and text) at their natural size and in a 64x64 box.
SKIPPED files are left out (rsvg-convert refuses weserv-giant.svg, over 32767 px; the .svgz bombs are
refused by SVGCoder, past its document limit). svgz/ fixtures at their natural size and in a 128x128 box.

Text is drawn with DejaVu alone, as in `make test`: the script sets FONTCONFIG_FILE to fontconfig/fonts.conf here.

Run from anywhere: python3 Tests/Fixtures/make-svg-reference.py
"""
import gzip
import hashlib
import io
import math
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
os.environ["FONTCONFIG_FILE"] = os.path.join(HERE, "fontconfig", "fonts.conf")


UNITS = {"": 1, "px": 1, "in": 96, "cm": 96 / 2.54, "mm": 96 / 25.4, "pt": 96 / 72, "pc": 16}
DEFAULT_LONG_SIDE = 512
# Refused by design: 10^7 px a side (rsvg-convert refuses it too); inflates past SVGCoder's 16 MiB document limit.
SKIPPED = {"weserv-giant.svg", "librsvg-bug515-too-many-elements.svgz", "crafted-bomb.svgz"}


def length(value):
    """An absolute length in CSS pixels, or None (missing, percent, em, ex, unparsable, not positive)."""
    match = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([a-z]*)\s*", value or "")
    if not match or match.group(2) not in UNITS:
        return None
    number = float(match.group(1)) * UNITS[match.group(2)]
    return number if number > 0 else None


def natural(root):
    """The natural size in CSS pixels (floats) and whether the root carries it itself."""
    width, height = length(root.get("width")), length(root.get("height"))
    box = [float(v) for v in re.split(r"[\s,]+", root.get("viewBox", "").strip()) if v]
    aspect = box[2] / box[3] if len(box) == 4 and box[2] > 0 and box[3] > 0 else None
    if width and height:
        return (width, height), True
    if width:
        return (width, width / (aspect or 1)), False
    if height:
        return (height * (aspect or 1), height), False
    if aspect:
        return (box[2], box[3]), True
    return (DEFAULT_LONG_SIDE, DEFAULT_LONG_SIDE), False


def render(path, size, natural_size):
    """rsvg-convert's rendering at `size` (ints), of a copy carrying the natural size when the file lacks it:
    at its own size (`natural_size`, which must then be `size`) or stretched to `size`."""
    raw = open(path, "rb").read()
    text = document(path).decode("utf-8")
    (width, height), own = natural(ElementTree.fromstring(text.encode()))
    with tempfile.TemporaryFile("w+b", suffix=".svg") as copy:
        if not own:
            tag = re.search(r"<svg\b[^>]*>", text)
            opening = re.sub(r"\s(width|height)\s*=\s*(\"[^\"]*\"|'[^']*')", "", tag.group(0))
            opening = opening.replace("<svg", f'<svg width="{width!r}" height="{height!r}"', 1)
            text = text[:tag.start()] + opening + text[tag.end():]
        copy.write(raw if own else text.encode())   # an .svgz as it is: rsvg-convert inflates it itself
        copy.flush()
        copy.seek(0)
        command = ["rsvg-convert", "--dpi-x", "96", "--dpi-y", "96", "-f", "png"]
        if not natural_size:
            command += ["-w", str(size[0]), "-h", str(size[1])]
        png = subprocess.run(command, stdin=copy, check=True, capture_output=True).stdout
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    assert image.size == tuple(size), (path, image.size, size)
    return hashlib.sha256(image.tobytes()).hexdigest()


def document(path):
    """The document's bytes, inflated when the file is gzip-compressed (.svgz)."""
    raw = open(path, "rb").read()
    return gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw


def fit(natural, box):
    ratio = min(box[0] / natural[0], box[1] / natural[1])
    width = min(box[0], max(1, int(natural[0] * ratio + 0.5)))
    height = min(box[1], max(1, int(natural[1] * ratio + 0.5)))
    return width, height


def main():
    rows = ["# file\tbox\twidth\theight\tsha256 (straight RGBA8 from rsvg-convert 2.54; make-svg-reference.py)"]
    for folder, boxes in (("resvg", [(300, 300)]), ("peers", [None, (128, 128)]), ("librsvg", [None, (64, 64)]),
                          ("svgz", [None, (128, 128)])):
        for name in sorted(os.listdir(os.path.join(HERE, "svg", folder))):
            if not name.endswith((".svg", ".svgz")) or name in SKIPPED:
                continue
            path = os.path.join(HERE, "svg", folder, name)
            size, _ = natural(ElementTree.fromstring(document(path)))
            for box in boxes:
                pixels = (math.ceil(size[0]), math.ceil(size[1])) if box is None else fit(size, box)
                label = "-" if box is None else f"{box[0]}x{box[1]}"
                rows.append(f"svg/{folder}/{name}\t{label}\t{pixels[0]}\t{pixels[1]}\t{render(path, pixels, box is None)}")
    with open(os.path.join(HERE, "svg-reference.tsv"), "w") as out:
        out.write("\n".join(rows) + "\n")
    print(f"{len(rows) - 1} rows", file=sys.stderr)


if __name__ == "__main__":
    main()
