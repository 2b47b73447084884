#!/usr/bin/env python3
"""Writes the LZW edge-case GIFs browsers decode (hand-made bytes, no library):

  lzw-deferred-clear.gif   160x160, 4 colours, random pixels: the encoder fills the 4096-entry table and goes on
                           with 12-bit codes and no clear code (a "deferred clear").
  lzw-no-end-code.gif      16x16, 4 colours: every pixel coded, but no end-of-information code before the terminator.
  lzw-short-data.gif       16x16, 4 colours: the image data is cut to its first half (terminator and trailer present).
  lzw-short-interlaced.gif the same cut, interlaced.

Run from this folder: python3 make-lzw-edge-cases.py
"""
import struct

PALETTE = bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])  # R G B W


def pixels(width, height, seed):
    state, out = seed, []
    for _ in range(width * height):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        out.append((state >> 16) & 3)
    return out


def lzw(indices, min_size, end_code=True):
    clear, eoi = 1 << min_size, (1 << min_size) + 1
    size, next_code = min_size + 1, eoi + 1
    table = {(i,): i for i in range(clear)}
    bits, nbits, out = 0, 0, bytearray()

    def emit(code):
        nonlocal bits, nbits
        bits |= code << nbits
        nbits += size
        while nbits >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8

    emit(clear)
    w = ()
    filled = False
    for c in indices:
        wc = w + (c,)
        if wc in table:
            w = wc
            continue
        emit(table[w])
        if next_code < 4096:  # never a clear code: once full, the table stays as it is
            table[wc] = next_code
            next_code += 1
            if next_code > (1 << size) and size < 12:
                size += 1
        else:
            filled = True
        w = (c,)
    emit(table[w])
    if end_code:
        emit(eoi)
    if nbits:
        out.append(bits & 0xFF)
    return bytes(out), filled


def gif(width, height, data, min_size, interlaced=False):
    out = bytearray(b"GIF89a" + struct.pack("<HHBBB", width, height, 0x81, 0, 0) + PALETTE)
    out += b"\x2C" + struct.pack("<HHHHB", 0, 0, width, height, 0x40 if interlaced else 0) + bytes([min_size])
    for i in range(0, len(data), 255):
        chunk = data[i:i + 255]
        out += bytes([len(chunk)]) + chunk
    out += b"\x00\x3B"
    return bytes(out)


def write(name, content):
    with open(name, "wb") as f:
        f.write(content)


data, filled = lzw(pixels(160, 160, 7), 2)
assert filled, "the table never filled"
write("lzw-deferred-clear.gif", gif(160, 160, data, 2))
data, _ = lzw(pixels(16, 16, 3), 2, end_code=False)
write("lzw-no-end-code.gif", gif(16, 16, data, 2))
data, _ = lzw(pixels(16, 16, 5), 2)
write("lzw-short-data.gif", gif(16, 16, data[:len(data) // 2], 2))
write("lzw-short-interlaced.gif", gif(16, 16, data[:len(data) // 2], 2, interlaced=True))
