#!/usr/bin/env bash
# Regenerates Tests/Fixtures/webp-reference.tsv from the files in Tests/Fixtures/webp/.
#
# Run from the project root with the shared corpus tools next to it (../shared):
#   Tests/Fixtures/make-webp-reference.sh
# Needs python3 with Pillow and numpy (refdecode.py uses them).
#
# One line per file: file, width, height, frame count, loop count (animations; 0 = forever; "-" for stills),
# durations in ms (comma-separated, raw), and the sha256 of each frame's straight-alpha RGBA8 bytes (comma-separated,
# row-major, no padding), every frame the fully composited canvas, as written by
#   python3 ../shared/tools/refdecode.py decode Tests/Fixtures/webp/FILE -o TMPDIR   (TMPDIR/frame_NNNN.rgba)
# Pillow 13 bundles libwebp 1.6.0; Debian 12's libwebp 1.2.4 decodes every one of these files to the same bytes
# (lossy ones included), so the test compares exactly.
set -euo pipefail
DIR=Tests/Fixtures/webp
REFDECODE=../shared/tools/refdecode.py
[ -d "$DIR" ] || { echo "run from the project root ($DIR not found)" >&2; exit 1; }
[ -f "$REFDECODE" ] || { echo "$REFDECODE not found (../shared must be present)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
{
  echo "# file	width	height	frames	loop	durations_ms	sha256_per_frame (made by make-webp-reference.sh)"
  for f in $(cd "$DIR" && ls -1 *.webp | sort); do
    out="$tmp/${f%.webp}"
    python3 "$REFDECODE" decode "$DIR/$f" -o "$out" > /dev/null
    python3 - "$out/meta.json" "$f" "$out" <<'PY'
import hashlib, json, sys
meta, name, out = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
w, h, n = meta['width'], meta['height'], meta['frame_count']
shas = []
for i in range(n):
    data = open('%s/frame_%04d.rgba' % (out, i), 'rb').read()
    assert len(data) == w * h * 4, (name, i, len(data))
    shas.append(hashlib.sha256(data).hexdigest())
loop = str(meta['loop_count']) if meta['is_animated'] else '-'
print('\t'.join([name, str(w), str(h), str(n), loop, ','.join(str(d) for d in meta['durations_ms']), ','.join(shas)]))
PY
  done
} > Tests/Fixtures/webp-reference.tsv
