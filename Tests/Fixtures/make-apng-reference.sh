#!/usr/bin/env bash
# Regenerates Tests/Fixtures/apng-reference.tsv from the APNGs in Tests/Fixtures/apng/ (but combo-*.png, whose
# expected frames make-apng-fixtures.py derives from the spec) and Tests/Fixtures/png/apng-*.png.
#
# Run from the project root with the shared corpus tools next to it (../shared):
#   Tests/Fixtures/make-apng-reference.sh
# For every file: python3 ../shared/tools/refdecode.py decode FILE -o TMPDIR --apng-skip-default
# (Pillow 13; the default image that is not part of the animation is dropped, as the APNG spec says players do).
# Columns: file, width, height, frames, loop_count (acTL num_plays), durations_ms as refdecode reports them (raw,
# comma-separated), sha256 of each frame's straight RGBA8 bytes (comma-separated).
# Known Pillow deviation: png/apng-red-blue.png frame 3 (Pillow's APNG compositing; the test checks that frame
# against the same animation's GIF, wuffs' animated-red-blue.gif, instead).
set -euo pipefail
FIX=Tests/Fixtures
REFDECODE=../shared/tools/refdecode.py
[ -f "$REFDECODE" ] || { echo "$REFDECODE not found (../shared must be present)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
{
  echo "# APNG reference: file<TAB>width<TAB>height<TAB>frames<TAB>loop_count<TAB>durations_ms<TAB>sha256 per frame"
  echo "# Generated from the project root by Tests/Fixtures/make-apng-reference.sh: refdecode.py decode FILE -o DIR --apng-skip-default"
  echo "# ($(python3 -c 'import PIL, sys; print(f"Python {sys.version.split()[0]}, Pillow {PIL.__version__}")'))"
  for f in $(ls -1 $FIX/apng/*.png $FIX/png/apng-*.png | grep -v /combo- | sort); do
    name=${f#$FIX/}
    out="$tmp/$(basename "$f")"
    python3 "$REFDECODE" decode "$f" -o "$out" --apng-skip-default > /dev/null
    python3 - "$name" "$out" <<'PY'
import hashlib, json, os, sys
name, out = sys.argv[1], sys.argv[2]
m = json.load(open(os.path.join(out, 'meta.json')))
frames = sorted(p for p in os.listdir(out) if p.endswith('.rgba'))
data = [open(os.path.join(out, p), 'rb').read() for p in frames]
durations = ','.join(str(int(d)) if d is not None else 'none' for d in m['durations_ms'][-len(data):])
print('\t'.join([name, str(m['width']), str(m['height']), str(len(data)), str(m['loop_count']), durations,
                 ','.join(hashlib.sha256(d).hexdigest() for d in data)]))
PY
  done
} > "$FIX/apng-reference.tsv"
echo "apng-reference.tsv: $(grep -vc '^#' "$FIX/apng-reference.tsv") files"
