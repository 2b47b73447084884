#!/usr/bin/env python3
"""Copies the BMP and CUR files of Pillow's own test suite that Pillow's RGBA and ours tell apart into
Tests/Fixtures/bmp-pillow/, and writes Tests/Fixtures/bmp-pillow-reference.tsv.

Run from the project root with a Pillow checkout's Tests/images folder and a Python with Pillow 13 and numpy:
    python3 Tests/Fixtures/make-bmp-pillow-fixtures.py PILLOW/Tests/images

The files (python-pillow/Pillow 4e5f09f) are the bmpsuite images Pillow ships (bmp/q/, bmp/b/) and two of Pillow's
own; they decode here as browsers show them, which differs from ../shared/tools/refdecode.py on purpose (decision
0084). bmp-pillow-reference.tsv: file, width, height, sha256 of the expected straight-alpha RGBA8 frame (row-major,
RGB set to 0 wherever alpha is 0: undefined under straight alpha), rule, sha256 of refdecode's frame (same
normalisation). Rules, each applied to Pillow's frame:
    `rle-skipped-transparent`  RLE pixels the stream never writes (delta, early end of line/bitmap) are transparent;
                               Pillow paints them with palette index 0. Which pixels are written comes from walking
                               the RLE stream here.
    `all-zero-alpha-opaque`    a BITFIELDS alpha mask whose every value is 0 shows opaque (Pillow: fully
                               transparent); RGB stays Pillow's.
    `pillow-cur-reader`        a 1/8-bit cursor whose directory size field is smaller than its data: refdecode reads
                               it as an icon, where Pillow takes the AND mask from the end of that size (the header
                               here); Pillow's own CUR reader, whose frame this is, reads it after the XOR rows.
"""
import hashlib, json, pathlib, shutil, struct, subprocess, sys, tempfile
import numpy as np
from PIL import Image

root = pathlib.Path(__file__).resolve().parent.parent.parent
source = pathlib.Path(sys.argv[1])
out = root / "Tests" / "Fixtures" / "bmp-pillow"
refdecode = root.parent / "shared" / "tools" / "refdecode.py"
FILES = {
    "bmp/q/pal8rletrns.bmp": "rle-skipped-transparent",
    "bmp/q/pal4rletrns.bmp": "rle-skipped-transparent",
    "bmp/b/badrle.bmp": "rle-skipped-transparent",
    "rgb32bf-abgr.bmp": "all-zero-alpha-opaque",
    "mask_1.cur": "pillow-cur-reader",
    "mask_L.cur": "pillow-cur-reader",
}


def rle_written(data):
    """The pixels an RLE4/RLE8 stream writes (True), upright."""
    offset, width, height = struct.unpack_from("<I", data, 10)[0], *struct.unpack_from("<ii", data, 18)
    rle4 = struct.unpack_from("<I", data, 30)[0] == 2
    total, pos, x, i = width * abs(height), 0, 0, offset
    written = np.zeros(total, bool)
    while pos < total and i + 2 <= len(data):
        count, value = data[i], data[i + 1]
        i += 2
        if count:
            run = min(count, max(0, width - x))
            written[pos:pos + run] = True
            pos += run
            x += run
        elif value == 0:
            pos = min(total, -(-pos // width) * width)
            x = 0
        elif value == 1:
            break
        elif value == 2:
            pos = min(total, pos + data[i] + data[i + 1] * width)
            x = pos % width
            i += 2
        else:
            n = min(total - pos, value)
            need = (n + 1) // 2 if rle4 else n
            got = min(need, len(data) - i)
            k = min(n, got * 2) if rle4 else got
            written[pos:pos + k] = True
            pos += k
            i += got + (need % 2)
            x += value
    grid = written.reshape(abs(height), width)
    return grid if height < 0 else grid[::-1]


def normalised(rgba):
    rgba = rgba.copy()
    rgba[rgba[..., 3] == 0] = 0
    return rgba


shutil.rmtree(out, ignore_errors=True)
out.mkdir(parents=True)
lines = []
with tempfile.TemporaryDirectory() as tmp:
    for path, rule in FILES.items():
        name = path.split("/")[-1]
        shutil.copyfile(source / path, out / name)
        data = (out / name).read_bytes()
        run = subprocess.run([sys.executable, str(refdecode), "decode", str(out / name), "-o", f"{tmp}/{name}"],
                             capture_output=True, text=True, check=True)
        meta = json.loads(run.stdout)
        frame = np.fromfile(f"{tmp}/{name}/frame_0000.rgba", np.uint8).reshape(meta["height"], meta["width"], 4)
        expected = frame.copy()
        if rule == "rle-skipped-transparent":
            expected[~rle_written(data)] = 0
        elif rule == "all-zero-alpha-opaque":
            assert not frame[..., 3].any(), name
            expected[..., 3] = 255
        elif rule == "pillow-cur-reader":
            expected = np.asarray(Image.open(out / name).convert("RGBA"))
        expected, frame = normalised(expected), normalised(frame)
        assert expected.shape == frame.shape and (expected != frame).any(), name
        sha = lambda a: hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()
        lines.append(f"{name}\t{meta['width']}\t{meta['height']}\t{sha(expected)}\t{rule}\t{sha(frame)}")

import PIL
header = [
    "# Pillow's test images that we decode as browsers do: file<TAB>width<TAB>height<TAB>sha256(expected straight-alpha"
    " RGBA8, RGB 0 where alpha is 0)<TAB>rule<TAB>sha256(refdecode's frame, same normalisation)",
    f"# Generated by: python3 Tests/Fixtures/make-bmp-pillow-fixtures.py PILLOW/Tests/images (Pillow {PIL.__version__});"
    " rules in that script, decision 0084.",
]
(root / "Tests" / "Fixtures" / "bmp-pillow-reference.tsv").write_text("\n".join(header + sorted(lines)) + "\n")
