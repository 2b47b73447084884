#!/usr/bin/env python3
"""Writes Tests/Fixtures/tiff/gen-ifd-loop-to-second.tif: Pillow's 3-page multipage.tiff (tiff/pillow-multipage.tiff)
with the third directory's next-IFD offset pointed back at the second directory (284) instead of 0, so the chain
is 0 -> 1 -> 2 -> 1 -> 2 ... forever. A reader that follows offsets without remembering them never ends; one that
counts each directory once finds 3 pages (Pillow's n_frames: 3). Pillow's own multipage_multiple_frame_loop.tiff
(back to the first page) and multipage_single_frame_loop.tiff (a page pointing at itself) cover the other loops.

Run from anywhere: python3 Tests/Fixtures/make-tiff-loop-fixture.py
"""
import os
import struct

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tiff")


def directories(data):
    """(offset of each IFD, offset of its next-IFD field), following the chain until it ends or loops."""
    assert data[:4] == b"II*\x00", "little-endian classic TIFF expected"
    seen, offset, result = set(), struct.unpack_from("<I", data, 4)[0], []
    while offset and offset not in seen:
        seen.add(offset)
        count = struct.unpack_from("<H", data, offset)[0]
        field = offset + 2 + 12 * count
        result.append((offset, field))
        offset = struct.unpack_from("<I", data, field)[0]
    return result


def main():
    data = bytearray(open(os.path.join(HERE, "pillow-multipage.tiff"), "rb").read())
    chain = directories(data)
    assert [d for d, _ in chain] == [28, 284, 580], chain
    struct.pack_into("<I", data, chain[2][1], chain[1][0])
    with open(os.path.join(HERE, "gen-ifd-loop-to-second.tif"), "wb") as out:
        out.write(data)


if __name__ == "__main__":
    main()
