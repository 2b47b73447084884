#!/usr/bin/env python3
"""Copies the corpus's BMP, ICO and CUR files into Tests/Fixtures/bmp/ and writes Tests/Fixtures/bmp-reference.tsv.

Run from the project root with the shared corpus next to it (../shared), with a Python that has Pillow and numpy
(../shared/tools/refdecode.py uses them):
    python3 Tests/Fixtures/make-bmp-fixtures.py

Every file whose manifest format (column 2, by content) is bmp, ico, cur or *-nomagic of them is copied as
bmp/<prefix>-<name> (prefix: the corpus folder), then decoded by
    python3 ../shared/tools/refdecode.py decode bmp/FILE -o TMPDIR
bmp-reference.tsv has one line per file:
    file, width, height, sha256 of the expected straight-alpha RGBA8 frame (row-major, no padding), rule, and
    the sha256 of refdecode's own frame; or, when Pillow refuses the file, 0, 0 and `error: <Pillow's message>`.
Rule `pillow`: the expected frame is refdecode's. The other rules are the deviations we keep on purpose (browser
behaviour), applied to Pillow's frame here from the file's own bytes:
    `ico-mask-after-xor`  a BMP icon entry without alpha: Pillow reads the AND mask from the end of the entry (by
                          the directory's size field); browsers and we read it right after the XOR rows (rows
                          missing from the file stay opaque). RGB stays Pillow's, alpha comes from that mask.
    `alpha-mask-16bit`    a 16-bit V4/V5 BI_BITFIELDS file with an alpha mask: Pillow drops the alpha; we scale it
                          (v * 255 / max). RGB stays Pillow's.
"""
import hashlib, json, os, pathlib, shutil, subprocess, sys, tempfile

root = pathlib.Path(__file__).resolve().parent.parent.parent
corpus = root.parent / "shared" / "corpus"
refdecode = root.parent / "shared" / "tools" / "refdecode.py"
out = root / "Tests" / "Fixtures" / "bmp"
prefixes = {"image-rs-bmp-ico-tiff": "irs", "twelvemonkeys": "tm", "serenity-libgfx": "sg",
            "faint-cursors": "fc", "peers-newfmt": "peer"}

rows = []
shutil.rmtree(out, ignore_errors=True)
out.mkdir(parents=True)
for line in (corpus / "manifest.tsv").read_text().splitlines()[1:]:
    path, fmt = line.split("\t")[:2]
    if fmt.split("-")[0] not in ("bmp", "ico", "cur"):
        continue
    name = prefixes[path.split("/")[0]] + "-" + os.path.basename(path).replace(" ", "_")
    assert not (out / name).exists(), name
    shutil.copyfile(corpus / path, out / name)
    rows.append((name, path))

import struct
import numpy as np

DEVIATIONS = {
    "irs-Bad_smile-incorrect-image-length.ico": "ico-mask-after-xor",
    "irs-bmp_v5_with_icc.ico": "ico-mask-after-xor",
    "sg-oss-fuzz-testcase-62541.bmp": "ico-mask-after-xor",
    "irs-V5_A1_R5_G5_B5.bmp": "alpha-mask-16bit",
}


def mask_after_xor(data, meta, rgba):
    entry = 6 + 16 * meta["ico_chosen"]
    dib = struct.unpack_from("<I", data, entry + 12)[0]
    size, width, height, _, bits = struct.unpack_from("<IiiHH", data, dib)
    colors = struct.unpack_from("<I", data, dib + 32)[0] if size >= 40 else 0
    palette = (colors or 1 << bits) * (3 if size == 12 else 4) if bits <= 8 else 0
    height //= 2
    start = dib + size + palette + ((width * bits + 31) // 32 * 4) * height
    stride = (width + 31) // 32 * 4
    out = rgba.copy()
    out[..., 3] = 255
    for row in range(height):
        line = data[start + row * stride: start + row * stride + (width + 7) // 8]
        if len(line) < (width + 7) // 8:
            break
        for x in range(width):
            if line[x // 8] & (0x80 >> (x % 8)):
                out[height - 1 - row, x, 3] = 0
    return out


def alpha_mask_16bit(data, meta, rgba):
    offset = struct.unpack_from("<I", data, 10)[0]
    width, height = struct.unpack_from("<ii", data, 18)
    amask = struct.unpack_from("<I", data, 14 + 52)[0]
    shift, maximum = (amask & -amask).bit_length() - 1, 0
    maximum = amask >> shift
    stride = (width * 16 + 31) // 32 * 4
    out = rgba.copy()
    for row in range(abs(height)):
        y = row if height < 0 else height - 1 - row
        for x in range(width):
            v = struct.unpack_from("<H", data, offset + row * stride + 2 * x)[0]
            out[y, x, 3] = ((v & amask) >> shift) * 255 // maximum
    return out


RULES = {"ico-mask-after-xor": mask_after_xor, "alpha-mask-16bit": alpha_mask_16bit}

lines = []
with tempfile.TemporaryDirectory() as tmp:
    for name, _ in sorted(rows):
        target = os.path.join(tmp, name)
        run = subprocess.run([sys.executable, str(refdecode), "decode", str(out / name), "-o", target],
                             capture_output=True, text=True)
        meta = json.loads(run.stdout) if run.stdout.strip() else {}
        if run.returncode != 0 or "error" in meta or not meta.get("frames"):
            message = meta.get("error") or run.stderr.strip().splitlines()[-1]
            lines.append(f"{name}\t0\t0\terror: {message}")
            continue
        assert meta["frame_count"] == 1, name
        rgba = pathlib.Path(target, "frame_0000.rgba").read_bytes()
        assert len(rgba) == meta["width"] * meta["height"] * 4, name
        pillow = hashlib.sha256(rgba).hexdigest()
        rule = DEVIATIONS.get(name, "pillow")
        expected = pillow
        if rule != "pillow":
            frame = np.frombuffer(rgba, dtype=np.uint8).reshape(meta["height"], meta["width"], 4)
            adjusted = RULES[rule]((out / name).read_bytes(), meta, frame)
            expected = hashlib.sha256(np.ascontiguousarray(adjusted).tobytes()).hexdigest()
            assert expected != pillow, name
        lines.append(f"{name}\t{meta['width']}\t{meta['height']}\t{expected}\t{rule}\t{pillow}")

import PIL
header = [
    "# BMP/ICO/CUR reference: file<TAB>width<TAB>height<TAB>sha256(expected straight-alpha RGBA8, row-major, no padding)"
    "<TAB>rule<TAB>sha256(Pillow's RGBA8); rules other than `pillow` are documented in make-bmp-fixtures.py",
    "# (or 0<TAB>0<TAB>error: Pillow's message, for files Pillow refuses)",
    "# Generated from the project root by: python3 Tests/Fixtures/make-bmp-fixtures.py",
    f"# which runs ../shared/tools/refdecode.py decode Tests/Fixtures/bmp/FILE -o TMPDIR (Pillow {PIL.__version__})",
    "# Sources: ../shared/corpus (manifest.tsv) folders " + ", ".join(sorted(prefixes)) + "; see SOURCES.md.",
]
(root / "Tests" / "Fixtures" / "bmp-reference.tsv").write_text("\n".join(header + lines) + "\n")
with open(root / "Tests" / "Fixtures" / "bmp" / ".." / "bmp-sources.tsv", "w") as f:
    f.write("# file<TAB>path in ../shared/corpus\n")
    for name, path in sorted(rows):
        f.write(f"{name}\t{path}\n")
print(f"{len(rows)} files, {sum(1 for l in lines if 'error:' in l)} refused by Pillow")
