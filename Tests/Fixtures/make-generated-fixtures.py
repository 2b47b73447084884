#!/usr/bin/env python3
"""Regenerates the fixtures that are not verbatim corpus copies (see Tests/Fixtures/SOURCES.md).

Run from the project root with the shared corpus next to it (../shared), Pillow, numpy and pypng installed:
    python3 Tests/Fixtures/make-generated-fixtures.py

  formats/sample.tiff  Pillow TIFF, little-endian ("II*\\0"), uncompressed RGB, from wuffs/test/data/hat.png
  formats/sample.bmp   Pillow BMP (BITMAPINFOHEADER, 24-bit BI_RGB), from the same pixels
  formats/sample.pdf   Pillow PDF (one page, the same pixels as a DCTDecode image), fixed dates
  png/interlaced-hibiscus.png
                       wuffs/test/data/hibiscus.regular.png (312x442 RGB8) re-encoded by the small writer
                       below as Adam7-interlaced RGB8 with adaptive per-row filters (Sub, Up, Average
                       and Paeth all occur; None never wins on this image); its pixels are identical to the source's (checked with Pillow and pypng).

The corpus has no TIFF, BMP, PDF or interlaced PNG larger than 36x28, hence these.
formats/sample.svg is hand-written and not produced here.
"""
import hashlib
import os
import struct
import sys
import time
import zlib

import numpy as np
import png
from PIL import Image

CORPUS = '../shared/corpus'
FIX = 'Tests/Fixtures'


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def _chunk(t, data):
    return struct.pack('>I', len(data)) + t + data + struct.pack('>I', zlib.crc32(t + data))


def _filter_row(cur, prev, bpp):
    """All five PNG filters of one row; pick libpng's heuristic: minimum sum of |signed byte|."""
    c = cur.astype(np.int32)
    p = prev.astype(np.int32)
    a = np.concatenate([np.zeros(bpp, np.int32), c[:-bpp]])
    b = p
    cc = np.concatenate([np.zeros(bpp, np.int32), p[:-bpp]])
    pa, pb, pc = np.abs(b - cc), np.abs(a - cc), np.abs(a + b - 2 * cc)
    paeth = np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, cc))
    cands = [c, c - a, c - b, c - ((a + b) >> 1), c - paeth]
    best = min(range(5), key=lambda k: int(np.abs(((cands[k] & 0xFF) ^ 0x80) - 0x80).sum()))
    return bytes([best]) + (cands[best] & 0xFF).astype(np.uint8).tobytes()


def encode_adam7_rgb8(img):
    """Minimal PNG writer: RGB8, Adam7 interlace, adaptive per-row filters (0-4), zlib level 9."""
    h, w, _ = img.shape
    raw = bytearray()
    for x0, y0, dx, dy in ADAM7:
        sub = img[y0::dy, x0::dx]
        if sub.shape[0] == 0 or sub.shape[1] == 0:
            continue
        prev = np.zeros(sub.shape[1] * 3, np.uint8)
        for row in sub:
            cur = row.reshape(-1)
            raw += _filter_row(cur, prev, 3)
            prev = cur
    ihdr = struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 1)
    return (b'\x89PNG\r\n\x1a\n' + _chunk(b'IHDR', ihdr) +
            _chunk(b'IDAT', zlib.compress(bytes(raw), 9)) + _chunk(b'IEND', b''))


def main():
    if not os.path.isdir(FIX) or not os.path.isdir(CORPUS):
        sys.exit(f'run from the project root with {CORPUS} present')
    os.makedirs(f'{FIX}/formats', exist_ok=True)
    os.makedirs(f'{FIX}/png', exist_ok=True)

    hat = Image.open(f'{CORPUS}/wuffs/test/data/hat.png').convert('RGB')  # 90x112 RGB8
    hat.save(f'{FIX}/formats/sample.tiff', format='TIFF', compression=None)
    hat.save(f'{FIX}/formats/sample.bmp', format='BMP')
    fixed = time.gmtime(1704067200)  # 2024-01-01T00:00:00Z, so reruns are byte-identical
    hat.save(f'{FIX}/formats/sample.pdf', format='PDF', resolution=72.0,
             title='WebImage test fixture', creationDate=fixed, modDate=fixed)

    src = f'{CORPUS}/wuffs/test/data/hibiscus.regular.png'
    dst = f'{FIX}/png/interlaced-hibiscus.png'
    with open(dst, 'wb') as f:
        f.write(encode_adam7_rgb8(np.asarray(Image.open(src).convert('RGB'))))
    a = np.asarray(Image.open(src).convert('RGB'))
    b = np.asarray(Image.open(dst).convert('RGB'))
    assert a.shape == b.shape and (a == b).all(), 'interlaced copy differs from its source (Pillow)'
    pw, ph, prows, _ = png.Reader(filename=dst).asRGB8()
    c = np.vstack([np.asarray(r, np.uint8) for r in prows]).reshape(ph, pw, 3)
    assert (a == c).all(), 'interlaced copy differs from its source (pypng)'
    assert open(dst, 'rb').read()[28] == 1, 'not interlaced'

    for p in ('formats/sample.tiff', 'formats/sample.bmp', 'formats/sample.pdf', 'png/interlaced-hibiscus.png'):
        d = open(f'{FIX}/{p}', 'rb').read()
        print(f'{p}\t{len(d)}\t{hashlib.sha256(d).hexdigest()}')


if __name__ == '__main__':
    main()
