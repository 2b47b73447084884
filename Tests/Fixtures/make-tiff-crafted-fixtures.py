#!/usr/bin/env python3
"""Writes crafted TIFFs in Tests/Fixtures/tiff/ from Pillow's test files there.

gen-ifd-loop-to-second.tif: Pillow's 3-page multipage.tiff (tiff/pillow-multipage.tiff)
with the third directory's next-IFD offset pointed back at the second directory (284) instead of 0, so the chain
is 0 -> 1 -> 2 -> 1 -> 2 ... forever. A reader that follows offsets without remembering them never ends; one that
counts each directory once finds 3 pages (Pillow's n_frames: 3). Pillow's own multipage_multiple_frame_loop.tiff
(back to the first page) and multipage_single_frame_loop.tiff (a page pointing at itself) cover the other loops.

gen-float64-grey.tif: the 128x128 float32 samples of Pillow's 10ct_32bit_128.tiff (-3.14...3.14) as 64-bit floats
(SampleFormat 3, BitsPerSample 64, MinIsBlack, one uncompressed strip, little-endian), written here byte by byte:
no tool on this machine writes 64-bit float TIFFs (Pillow cannot). Every value is exact in both widths, so its
pixels must equal the float32 file's.

gen-lab16-cielab.tif and gen-icclab8.tif: the raw 8-bit CIELab samples of Pillow's hopper.Lab.tif (its one
uncompressed strip) as 16-bit CIELab (L* x 257, a* and b* x 256 as signed 16-bit) and as 8-bit ICCLab (Photometric
9: a* and b* + 128). Both encode exactly the same L*a*b* values, so their pixels must equal hopper.Lab.tif's.

Run from anywhere (Pillow and numpy needed): python3 Tests/Fixtures/make-tiff-crafted-fixtures.py
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


def write_tiff(width, height, photometric, bits, sample_format, pixels, samples=1):
    """An uncompressed little-endian one-strip TIFF; `bits` per sample, the same for every sample."""
    tags = [(256, 4, [width]), (257, 4, [height]), (258, 3, [bits] * samples), (259, 3, [1]), (262, 3, [photometric]),
            (273, 4, [0]), (277, 3, [samples]), (278, 4, [height]), (279, 4, [len(pixels)]),
            (339, 3, [sample_format] * samples)]
    ifd_offset = 8
    extra_offset = ifd_offset + 2 + 12 * len(tags) + 4
    extra = bytearray()   # values that do not fit in an entry: BitsPerSample and SampleFormat of 3 samples
    entries = bytearray()
    for tag, kind, values in tags:
        packed = b"".join(struct.pack("<H" if kind == 3 else "<I", v) for v in values)
        if len(packed) <= 4:
            entries += struct.pack("<HHI", tag, kind, len(values)) + packed.ljust(4, b"\x00")
        else:
            entries += struct.pack("<HHII", tag, kind, len(values), extra_offset + len(extra))
            extra += packed
    data_offset = extra_offset + len(extra)
    entries = entries.replace(struct.pack("<HHI", 273, 4, 1) + b"\x00" * 4,
                              struct.pack("<HHII", 273, 4, 1, data_offset))
    header = b"II*\x00" + struct.pack("<I", ifd_offset) + struct.pack("<H", len(tags))
    return header + bytes(entries) + struct.pack("<I", 0) + bytes(extra) + pixels


def lab_variants(source):
    """(16-bit CIELab, 8-bit ICCLab) files of the same L*a*b* values as `source`'s 8-bit CIELab strip."""
    from PIL import Image
    image = Image.open(source)
    width, height = image.size
    offset, count = image.tag_v2[273][0], image.tag_v2[279][0]
    raw = open(source, "rb").read()[offset:offset + count]
    assert image.tag_v2[262] == 8 and image.tag_v2[259] == 1 and count == width * height * 3
    wide, icc = bytearray(), bytearray()
    for i in range(0, count, 3):
        lightness, a, b = raw[i], struct.unpack("b", raw[i + 1:i + 2])[0], struct.unpack("b", raw[i + 2:i + 3])[0]
        wide += struct.pack("<Hhh", lightness * 257, a * 256, b * 256)
        icc += bytes([lightness, a + 128, b + 128])
    return (write_tiff(width, height, 8, 16, 1, bytes(wide), samples=3),
            write_tiff(width, height, 9, 8, 1, bytes(icc), samples=3))


def float64_grey(source):
    """An uncompressed little-endian MinIsBlack TIFF of `source`'s float samples widened to 64 bits."""
    import numpy as np
    from PIL import Image
    image = Image.open(source)
    assert image.mode == "F"
    width, height = image.size
    pixels = np.asarray(image, dtype="<f4").astype("<f8").tobytes()
    tags = [(256, 4, width), (257, 4, height), (258, 3, 64), (259, 3, 1), (262, 3, 1), (273, 4, 0),
            (277, 3, 1), (278, 4, height), (279, 4, len(pixels)), (339, 3, 3)]
    ifd_offset = 8
    data_offset = ifd_offset + 2 + 12 * len(tags) + 4
    out = bytearray(b"II*\x00" + struct.pack("<I", ifd_offset) + struct.pack("<H", len(tags)))
    for tag, kind, value in tags:
        value = data_offset if tag == 273 else value
        packed = struct.pack("<H", value) + b"\x00\x00" if kind == 3 else struct.pack("<I", value)
        out += struct.pack("<HHI", tag, kind, 1) + packed
    return bytes(out + struct.pack("<I", 0) + pixels)


def main():
    wide, icc = lab_variants(os.path.join(HERE, "pillow-hopper.Lab.tif"))
    for name, data in (("gen-lab16-cielab.tif", wide), ("gen-icclab8.tif", icc)):
        with open(os.path.join(HERE, name), "wb") as out:
            out.write(data)
    with open(os.path.join(HERE, "gen-float64-grey.tif"), "wb") as out:
        out.write(float64_grey(os.path.join(HERE, "pillow-10ct_32bit_128.tiff")))
    data = bytearray(open(os.path.join(HERE, "pillow-multipage.tiff"), "rb").read())
    chain = directories(data)
    assert [d for d, _ in chain] == [28, 284, 580], chain
    struct.pack_into("<I", data, chain[2][1], chain[1][0])
    with open(os.path.join(HERE, "gen-ifd-loop-to-second.tif"), "wb") as out:
        out.write(data)


if __name__ == "__main__":
    main()
