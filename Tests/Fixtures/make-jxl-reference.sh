#!/usr/bin/env bash
# Regenerates Tests/Fixtures/jxl-reference.tsv and the reference frames in Tests/Fixtures/jxl-reference/ from the
# decodable files in Tests/Fixtures/jxl/ (every file but bad-*.jxl).
#
# Run from the project root with ../shared present: Tests/Fixtures/make-jxl-reference.sh
# Needs python3 with Pillow, numpy and pillow-jxl-plugin (refdecode.py decodes stills with pillow-jxl-plugin, whose
# libjxl is newer than Debian's 0.7, and animations with the system libjxl 0.7 through ctypes).
#
# jxl-reference.tsv: file, width, height, frame count, loop count (empty for stills), durations in ms
#   (comma-separated, empty for stills), sha256 of each frame's straight-alpha RGBA8 bytes (comma-separated), as
#   written by `refdecode.py decode FILE -o DIR` (upright: the codestream orientation applied).
#   Exception: conformance-blendmodes.jxl takes the conformance suite's own ref.png (pillow-jxl-plugin composites
#   its blend modes differently from the suite; Debian's libjxl 0.7 matches the suite exactly).
#   Left out: has_permutation_with_container.jxl (a test checks its digest against djxl's output), and
#   progressive.jxl, made here from png/interlaced-hibiscus.png for the incremental tests (its reference PNG would
#   be 270 KB; the tests compare it with that source PNG instead), and conformance-alpha_premultiplied.jxl (alpha
#   stored premultiplied: pillow-jxl-plugin hands its RGB back premultiplied, 9.6 dB from the straight RGBA libjxl
#   gives when asked to unpremultiply; its reference is the conformance suite's own ref.png, sampled every 16th
#   pixel of every 16th row into jxl-conformance-ref/alpha_premultiplied-every16.png, decision 0084).
# jxl-reference/NAME.png: the first frame as a PNG (RGBA8) for stills whose PNG is at most 64 KB, for the PSNR
#   comparison of files whose pixels differ between libjxl versions (rounding, XYB, JPEG reconstruction).
set -euo pipefail
FIX=Tests/Fixtures
REFDECODE=../shared/tools/refdecode.py
PY=${PYTHON:-python3}
[ -d "$FIX/jxl" ] || { echo "run from the project root" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
mkdir -p "$FIX/jxl-reference"
rm -f "$FIX/jxl-reference/"*.png
{
  echo "# file	width	height	frames	loop	durations_ms	frame_sha256 (made by make-jxl-reference.sh)"
  for f in $(cd "$FIX/jxl" && ls -1 *.jxl | grep -v '^bad-' | grep -v -e '^has_permutation_with_container' -e '^progressive' \
           -e '^conformance-alpha_premultiplied' | sort); do
    out="$tmp/${f%.jxl}"
    "$PY" "$REFDECODE" decode "$FIX/jxl/$f" -o "$out" --png > "$out.json"
    if [ "$f" = conformance-blendmodes.jxl ]; then
      "$PY" -c 'import sys; from PIL import Image; im = Image.open(sys.argv[1]).convert("RGBA")
open(sys.argv[2] + "/frame_0000.rgba", "wb").write(im.tobytes()); im.save(sys.argv[2] + "/frame_0000.png")' \
        ../shared/corpus/jxl-conformance/testcases/blendmodes/ref.png "$out"
    fi
    "$PY" - "$f" "$out" "$FIX/jxl-reference" <<'PYEOF'
import hashlib, json, os, shutil, sys
name, out, refdir = sys.argv[1:]
m = json.load(open(os.path.join(out, 'meta.json')))
n = m['frame_count']
shas = [hashlib.sha256(open(os.path.join(out, 'frame_%04d.rgba' % k), 'rb').read()).hexdigest() for k in range(n)]
animated = n > 1
loop = '' if not animated else str(m['loop_count'] or 0)
durations = '' if not animated else ','.join(str(d) for d in m['durations_ms'])
print('\t'.join([name, str(m['width']), str(m['height']), str(n), loop, durations, ','.join(shas)]))
png = os.path.join(out, 'frame_0000.png')
if not animated and os.path.getsize(png) <= 64 * 1024:
    shutil.copy(os.path.join(out, 'frame_0000.png'), os.path.join(refdir, name[:-4] + '.png'))
PYEOF
  done
} > "$FIX/jxl-reference.tsv"
"$PY" -c 'import sys; import numpy as np; from PIL import Image
a = np.asarray(Image.open(sys.argv[1]).convert("RGBA"))[::16, ::16]
Image.fromarray(np.ascontiguousarray(a)).save(sys.argv[2])' \
  ../shared/corpus/jxl-conformance/testcases/alpha_premultiplied/ref.png \
  "$FIX/jxl-conformance-ref/alpha_premultiplied-every16.png"
