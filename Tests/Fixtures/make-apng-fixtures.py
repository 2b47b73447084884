#!/usr/bin/env python3
"""Writes Tests/Fixtures/apng/combo-d{D}-b{B}.png: small APNGs for every dispose_op (D: 0 none, 1 background,
2 previous) x blend_op (B: 0 source, 1 over) pair, with opaque, semi-transparent and transparent pixels.

Run from the project root: python3 Tests/Fixtures/make-apng-fixtures.py
Deterministic (zlib level 9, no timestamps).

It also writes Tests/Fixtures/apng-combo-expected.tsv: each file's frames composited by the APNG specification's
rules, computed here with exact fractions (independent of the Swift code and of Pillow, whose APNG "over" pastes
with the frame's alpha as a mask, multiplying alpha twice, and whose PREVIOUS disposal after a first frame does
not restore). Canvas starts transparent black; dispose_op PREVIOUS on the first frame acts as BACKGROUND;
OVER: a = sa + da (1 - sa), c = (sc sa + dc da (1 - sa)) / a, both rounded half up to 8 bits; a = 0 gives 0,0,0,0.
Columns: file, num_plays, delays in ms, frames as hex RGBA8 (comma-separated).

Every file: 4x4 RGBA8 canvas, acTL 4 frames, num_plays = 2 + D (so loop counts differ), delays 1/10, 20/1000,
0/0 (0 ms: den 0 means 1/100 s; shows 100 ms), 3/100 s.
  frame 0 = IDAT (part of the animation), full canvas, dispose D, blend source:
      row 0 opaque red, row 1 green alpha 128, row 2 transparent, row 3 opaque blue
  frame 1: 2x2 at (1,1), dispose D, blend B: white 255, black a100, red a0, blue a200
  frame 2: 1x3 at (0,1), dispose 0 (none), blend 1 (over): green 255, grey a50, (10,20,30) a255
  frame 3: 4x1 at (0,3), dispose D, blend B: (200,100,50) a128 x4
combo-d0-b0-skip.png is the same animation behind a default image (an IDAT before the first fcTL, not a frame):
  the default image is 4x4 opaque white.
"""
import struct, zlib, os

def chunk(t, body):
    return struct.pack('>I', len(body)) + t + body + struct.pack('>I', zlib.crc32(t + body) & 0xffffffff)

def raw(w, h, pixels):
    rows = b''
    for y in range(h):
        rows += b'\x00' + bytes(sum((list(p) for p in pixels[y * w:(y + 1) * w]), []))
    return zlib.compress(rows, 9)

def fctl(seq, w, h, x, y, num, den, dispose, blend):
    return chunk(b'fcTL', struct.pack('>IIIIIHHBB', seq, w, h, x, y, num, den, dispose, blend))

R, G, B, W = (255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 255, 255)
frame0 = [R] * 4 + [(0, 255, 0, 128)] * 4 + [(0, 0, 0, 0)] * 4 + [B] * 4
frame1 = [W, (0, 0, 0, 100), (255, 0, 0, 0), (0, 0, 255, 200)]
frame2 = [G, (128, 128, 128, 50), (10, 20, 30, 255)]
frame3 = [(200, 100, 50, 128)] * 4

def build(dispose, blend, skip_default):
    out = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 4, 4, 8, 6, 0, 0, 0))
    out += chunk(b'acTL', struct.pack('>II', 4, 2 + dispose))
    seq = 0
    if skip_default:
        out += chunk(b'IDAT', raw(4, 4, [W] * 16))
        out += fctl(seq, 4, 4, 0, 0, 1, 10, dispose, 0); seq += 1
        out += chunk(b'fdAT', struct.pack('>I', seq) + raw(4, 4, frame0)); seq += 1
    else:
        out += fctl(seq, 4, 4, 0, 0, 1, 10, dispose, 0); seq += 1
        out += chunk(b'IDAT', raw(4, 4, frame0))
    for (w, h, x, y, num, den, d, b, px) in [(2, 2, 1, 1, 20, 1000, dispose, blend, frame1),
                                             (1, 3, 0, 1, 0, 0, 0, 1, frame2),
                                             (4, 1, 0, 3, 3, 100, dispose, blend, frame3)]:
        out += fctl(seq, w, h, x, y, num, den, d, b); seq += 1
        out += chunk(b'fdAT', struct.pack('>I', seq) + raw(w, h, px)); seq += 1
    return out + chunk(b'IEND', b'')

from fractions import Fraction
import math

def compose(frames):
    """frames: (x, y, w, h, dispose, blend, pixels) -> list of canvas byte strings."""
    canvas = [(0, 0, 0, 0)] * 16
    outputs = []
    for index, (x, y, w, h, dispose, blend, px) in enumerate(frames):
        before = list(canvas)
        for j in range(h):
            for i in range(w):
                k = (y + j) * 4 + x + i
                s_ = px[j * w + i]
                if blend == 0:
                    canvas[k] = s_
                    continue
                d_ = canvas[k]
                sa, da = Fraction(s_[3], 255), Fraction(d_[3], 255)
                a = sa + da * (1 - sa)
                if a == 0:
                    canvas[k] = (0, 0, 0, 0)
                    continue
                rnd = lambda v: math.floor(v + Fraction(1, 2))
                canvas[k] = tuple(rnd((s_[c] * sa + d_[c] * da * (1 - sa)) / a) for c in range(3)) + (rnd(a * 255),)
        outputs.append(bytes(sum((list(p) for p in canvas), [])))
        if dispose == 2 and index == 0:
            dispose = 1
        if dispose == 1:
            for j in range(h):
                for i in range(w):
                    canvas[(y + j) * 4 + x + i] = (0, 0, 0, 0)
        elif dispose == 2:
            canvas = before
    return outputs

folder = 'Tests/Fixtures/apng'
rows = []
os.makedirs(folder, exist_ok=True)
for d in range(3):
    for b in range(2):
        open(f'{folder}/combo-d{d}-b{b}.png', 'wb').write(build(d, b, False))
        frames = compose([(0, 0, 4, 4, d, 0, frame0), (1, 1, 2, 2, d, b, frame1), (0, 1, 1, 3, 0, 1, frame2),
                          (0, 3, 4, 1, d, b, frame3)])
        rows.append((f'apng/combo-d{d}-b{b}.png', 2 + d, frames))
        if d == 0 and b == 0:
            rows.append(('apng/combo-d0-b0-skip.png', 2, frames))
open(f'{folder}/combo-d0-b0-skip.png', 'wb').write(build(0, 0, True))
with open('Tests/Fixtures/apng-combo-expected.tsv', 'w') as table:
    table.write('# Made by Tests/Fixtures/make-apng-fixtures.py (APNG spec rules, exact fractions): '
                'file, num_plays, delays_ms, frames as hex RGBA8\n')
    for name, plays, frames in sorted(rows):
        table.write(f'{name}\t{plays}\t100,20,0,30\t' + ','.join(f.hex() for f in frames) + '\n')
