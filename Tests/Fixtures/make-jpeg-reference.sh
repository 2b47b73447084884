#!/usr/bin/env bash
# Regenerates Tests/Fixtures/jpeg-reference.tsv from the JPEG files in Tests/Fixtures/jpeg/.
#
# Run from the project root with the shared corpus tools next to it (../shared):
#   Tests/Fixtures/make-jpeg-reference.sh
# Needs python3 with Pillow and numpy (refdecode.py uses them).
#
# Columns: file, width, height, sha256 of the straight-alpha RGBA8 bytes (row-major, no padding) written by
#   python3 ../shared/tools/refdecode.py decode Tests/Fixtures/jpeg/FILE -o TMPDIR   -> TMPDIR/frame_0000.rgba
# refdecode applies no EXIF orientation (compare with DecodeOptions.applyOrientation = false) and no colour
# management; CMYK/YCCK go through Pillow's "CMYK;I" read and its cmyk2rgb formula.
set -euo pipefail
DIR=Tests/Fixtures/jpeg
REFDECODE=../shared/tools/refdecode.py
[ -d "$DIR" ] || { echo "run from the project root ($DIR not found)" >&2; exit 1; }
[ -f "$REFDECODE" ] || { echo "$REFDECODE not found (../shared must be present)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
pyver=$(python3 -c 'import PIL, numpy, sys; from PIL import features; t = features.version("libjpeg_turbo"); print(f"Python {sys.version.split()[0]}, Pillow {PIL.__version__} (libjpeg-turbo {t}), numpy {numpy.__version__}")')
{
  echo "# JPEG reference: file<TAB>width<TAB>height<TAB>sha256(straight-alpha RGBA8 as stored, no orientation applied)"
  echo "# Generated from the project root by: Tests/Fixtures/make-jpeg-reference.sh ($pyver)"
  for f in $(cd "$DIR" && ls -1 *.jpg | sort); do
    out="$tmp/${f%.jpg}"
    python3 "$REFDECODE" decode "$DIR/$f" -o "$out" > /dev/null
    read -r w h < <(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); assert m["frame_count"]==1; print(m["width"], m["height"])' "$out/meta.json")
    printf '%s\t%s\t%s\t%s\n' "$f" "$w" "$h" "$(sha256sum "$out/frame_0000.rgba" | cut -d' ' -f1)"
  done
} > Tests/Fixtures/jpeg-reference.tsv
echo "jpeg-reference.tsv: $(grep -vc '^#' Tests/Fixtures/jpeg-reference.tsv) files"
