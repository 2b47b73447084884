#!/usr/bin/env bash
# Regenerates the generated JPEG fixtures (Tests/Fixtures/jpeg/hat-*.jpg, Tests/Fixtures/jpeg/ycck.jpg and
# Tests/Fixtures/jpeg-orientation/*.jpg) from files in the shared corpus. Run from the project root with ../shared
# present. Needs libjpeg-turbo-progs (cjpeg, jpegtran; Debian 12: 2.1.5), a C compiler with libjpeg-dev,
# libimage-exiftool-perl (exiftool) and python3 with Pillow.
set -euo pipefail
CORPUS=../shared/corpus
OUT=Tests/Fixtures
[ -d "$CORPUS" ] || { echo "$CORPUS not found (run from the project root)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. Chroma subsampling and arithmetic coding, from wuffs' hat.png (90x112 RGB, Met Museum, public domain).
python3 -c 'import sys; from PIL import Image; Image.open(sys.argv[1]).convert("RGB").save(sys.argv[2])' \
  "$CORPUS/wuffs/test/data/hat.png" "$tmp/hat.ppm"
cjpeg -quality 90 -sample 2x2 -optimize "$tmp/hat.ppm" > "$OUT/jpeg/hat-420.jpg"
cjpeg -quality 90 -sample 2x1 -optimize "$tmp/hat.ppm" > "$OUT/jpeg/hat-422.jpg"
cjpeg -quality 90 -sample 1x1 -optimize "$tmp/hat.ppm" > "$OUT/jpeg/hat-444.jpg"
cjpeg -quality 90 -sample 2x2 -progressive "$tmp/hat.ppm" > "$OUT/jpeg/hat-progressive.jpg"
jpegtran -arithmetic "$OUT/jpeg/hat-420.jpg" > "$OUT/jpeg/hat-arithmetic.jpg"
jpegtran -arithmetic -progressive "$OUT/jpeg/hat-420.jpg" > "$OUT/jpeg/hat-arithmetic-progressive.jpg"

# 2. YCCK (Adobe transform 2), from jpeg-decoder's mozilla/jpg-cmyk-2.jpg (CMYK, Adobe transform 0).
cc -O2 Tests/Fixtures/tools/make-ycck.c -ljpeg -o "$tmp/make-ycck"
"$tmp/make-ycck" "$CORPUS/jpeg-decoder/tests/reftest/images/mozilla/jpg-cmyk-2.jpg" "$OUT/jpeg/ycck.jpg" 90

# 3. EXIF orientation 1-8: recurser/exif-orientation-examples' Landscape_N.jpg (1800x1200 stored, or 1200x1800
#    for 5-8), DCT-scaled by 1/8 on decode (Pillow draft mode: libjpeg scale 1/8, exactly 225x150 / 150x225)
#    and re-encoded at quality 92, 4:2:0, with the file's own EXIF block (orientation tag unchanged).
mkdir -p "$OUT/jpeg-orientation"
python3 - "$CORPUS/exif-orientation" "$OUT/jpeg-orientation" <<'PY'
import os, sys
from PIL import Image
src, dst = sys.argv[1:]
for n in range(1, 9):
    im = Image.open(os.path.join(src, f'Landscape_{n}.jpg'))
    exif = im.info['exif']
    w, h = im.size
    im.draft('RGB', (w // 8, h // 8))
    assert im.size == (w // 8, h // 8), im.size
    im.load()
    im.save(os.path.join(dst, f'Landscape_{n}.jpg'), quality=92, subsampling='4:2:0', exif=exif)
PY

# 4. Orientation in XMP only, as in SDWebImage's TestJFIF.jpg (4032x3024, 2.5 MB, so not copied): a JFIF APP0, an
#    EXIF block whose IFD0 is empty (IFD1 holds a thumbnail) and an XMP packet saying tiff:Orientation 3. Built with
#    exiftool (libimage-exiftool-perl) around Landscape_3.jpg's pixels (the stored image upside down); exiftool
#    rewrites metadata only, so the scan data are that file's. Then the same with EXIF orientation 1 kept and an XMP
#    orientation of 6 added to Landscape_1.jpg: EXIF wins (as in Pillow's getexif, which reads XMP only without it).
python3 -c 'import sys; from PIL import Image; im = Image.open(sys.argv[1]); im.thumbnail((40, 40)); im.save(sys.argv[2], quality=80)' \
  "$OUT/jpeg-orientation/Landscape_3.jpg" "$tmp/thumb.jpg"
exiftool -q -all= -o "$tmp/bare3.jpg" "$OUT/jpeg-orientation/Landscape_3.jpg"
rm -f "$OUT/jpeg-orientation/xmp-only-3.jpg" "$OUT/jpeg-orientation/xmp-6-exif-1.jpg"
exiftool -q -o "$tmp/xmp3.jpg" -n -XMP-tiff:Orientation=3 "-ThumbnailImage<=$tmp/thumb.jpg" "$tmp/bare3.jpg"
exiftool -q -o "$tmp/xmp3b.jpg" -IFD0:XResolution= -IFD0:YResolution= -IFD0:ResolutionUnit= -IFD0:YCbCrPositioning= \
  "$tmp/xmp3.jpg"
exiftool -q -o "$OUT/jpeg-orientation/xmp-only-3.jpg" -JFIF:ResolutionUnit=inches -JFIF:XResolution=300 \
  -JFIF:YResolution=300 "$tmp/xmp3b.jpg"
exiftool -q -o "$OUT/jpeg-orientation/xmp-6-exif-1.jpg" -n -XMP-tiff:Orientation=6 "$OUT/jpeg-orientation/Landscape_1.jpg"
ls -l "$OUT"/jpeg/hat-*.jpg "$OUT/jpeg/ycck.jpg" "$OUT"/jpeg-orientation/*.jpg
