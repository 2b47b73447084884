#!/usr/bin/env bash
# Regenerates Tests/Fixtures/tiff-reference.tsv (and the PNG references in Tests/Fixtures/tiff/reference/) from the
# TIFF files in Tests/Fixtures/tiff/ (made by make-tiff-fixtures.py).
#
# Run from the project root with the shared corpus tools next to it (../shared):
#   Tests/Fixtures/make-tiff-reference.sh
# Needs python3 with Pillow and numpy (refdecode.py uses them).
#
# Columns: file, compression (the first page's TIFF Compression tag), compare (exact or psnr), oriented (1 when
# Pillow applied the Orientation tag), frames, then one WxH:sha256 per frame (comma-separated): the straight-alpha
# RGBA8 bytes written by
#   python3 ../shared/tools/refdecode.py decode Tests/Fixtures/tiff/FILE -o TMPDIR   -> TMPDIR/frame_NNNN.rgba
# i.e. every page at its own size, 16-bit samples reduced v >> 8, CMYK by Pillow's formula.
# Three things about Pillow 13 that the table records rather than hides:
#  - orientation: refdecode applies none, but Pillow itself transposes pages it decodes through libtiff (compressed
#    ones) when their Orientation tag is 2-8 ("oriented" 1); uncompressed pages stay as stored.
#  - 12-bit grey: Pillow's raw "I;12" unpacker keeps 0...4095 in an I;16 image, so refdecode's v >> 8 gives 0...15
#    (a nearly black image). For those pages the SHA-256 is of Pillow's own 12-bit samples reduced v >> 4 instead.
#  - compare "psnr": JPEG-compressed files (compression 7; Pillow's bundled libjpeg-turbo is newer than Debian's)
#    and CIELab (Photometric 8: Pillow's lab2rgb and libtiff's CIELab conversion differ) are compared by PSNR
#    against Tests/Fixtures/tiff/reference/FILE.png, refdecode's first frame.
# Files refdecode fails on get no line (listed in a comment).
set -euo pipefail
DIR=Tests/Fixtures/tiff
REFDECODE=../shared/tools/refdecode.py
[ -d "$DIR" ] || { echo "run from the project root ($DIR not found)" >&2; exit 1; }
[ -f "$REFDECODE" ] || { echo "$REFDECODE not found (../shared must be present)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
mkdir -p "$DIR/reference"
rm -f "$DIR"/reference/*.png
pyver=$(python3 -c 'import PIL, numpy, sys; from PIL import features as f; t, j = f.version("libtiff"), f.version("libjpeg_turbo"); print(f"Python {sys.version.split()[0]}, Pillow {PIL.__version__} (libtiff {t}, libjpeg-turbo {j}), numpy {numpy.__version__}")')
failed=()
: > "$tmp/rows"
for f in $(cd "$DIR" && ls -1 | grep -Ei '\.tiff?$' | sort); do
  out="$tmp/$f"
  if ! python3 "$REFDECODE" decode "$DIR/$f" -o "$out" > /dev/null 2> "$tmp/err"; then failed+=("$f"); continue; fi
  python3 - "$DIR/$f" "$out" "$DIR/reference" >> "$tmp/rows" <<'PY'
import hashlib, json, os, sys
import numpy as np
from PIL import Image
path, out, refdir = sys.argv[1:4]
meta = json.load(open(os.path.join(out, 'meta.json')))
first = Image.open(path)
compression = first.tag_v2.get(259, 1)
lossy = compression == 7 or first.tag_v2.get(262) == 8
oriented = int(first.tile[0].codec_name == 'libtiff' and first.tag_v2.get(274) in (2, 3, 4, 5, 6, 7, 8))
frames = []
for i in range(meta['frame_count']):
    raw = open(os.path.join(out, f'frame_{i:04d}.rgba'), 'rb').read()
    # refdecode's meta has the canvas size; pages of other sizes: find the size from the page itself.
    im = Image.open(path); im.seek(i)
    w, h = im.size
    assert len(raw) == w * h * 4, (path, i, len(raw), w, h)
    if im.tag_v2.get(258) in (12, (12,)) and im.mode.startswith('I;16'):
        g = (np.asarray(im).astype(np.uint16) >> 4).astype(np.uint8)
        raw = np.dstack([g, g, g, np.full_like(g, 255)]).tobytes()
    frames.append(f'{w}x{h}:{hashlib.sha256(raw).hexdigest()}')
    if i == 0 and lossy:
        Image.frombytes('RGBA', (w, h), raw).save(os.path.join(refdir, os.path.basename(path) + '.png'), optimize=True)
mode = 'psnr' if lossy else 'exact'
print(f'{os.path.basename(path)}\t{compression}\t{mode}\t{oriented}\t{len(frames)}\t{",".join(frames)}')
PY
done
{
  echo "# TIFF reference: file<TAB>compression<TAB>compare<TAB>oriented<TAB>frames<TAB>WxH:sha256(straight-alpha RGBA8) per frame"
  echo "# Generated from the project root by: Tests/Fixtures/make-tiff-reference.sh ($pyver)"
  if [ ${#failed[@]} -gt 0 ]; then echo "# refdecode.py FAILED on: ${failed[*]} (no line below)"; fi
  cat "$tmp/rows"
} > Tests/Fixtures/tiff-reference.tsv
echo "tiff-reference.tsv: $(wc -l < "$tmp/rows") files; refdecode failures: ${#failed[@]} ${failed[*]:-}"
