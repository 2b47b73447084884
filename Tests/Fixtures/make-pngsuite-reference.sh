#!/usr/bin/env bash
# Regenerates Tests/Fixtures/pngsuite-reference.tsv and Tests/Fixtures/pngsuite-reference16.tsv
# from the PNG files in Tests/Fixtures/pngsuite/.
#
# Run from the project root with the shared corpus tools checked out next to it (../shared):
#   Tests/Fixtures/make-pngsuite-reference.sh
# Needs python3 with Pillow, numpy and pypng (refdecode.py uses them).
#
# pngsuite-reference.tsv   (every valid file, i.e. not x*.png; x*.png are deliberately corrupt)
#   file, width, height, sha256 of the straight-alpha RGBA8 bytes of the single frame
#   (row-major, no padding) as written by
#     python3 ../shared/tools/refdecode.py decode Tests/Fixtures/pngsuite/FILE -o TMPDIR
#   i.e. sha256sum TMPDIR/frame_0000.rgba. Default --png16 strip (v >> 8), no gamma, no sBIT
#   shift, tRNS turned into alpha (libpng png_set_expand + png_set_tRNS_to_alpha + png_set_strip_16).
# pngsuite-reference16.tsv (every valid file whose IHDR bit depth, byte 24, is 16)
#   file, width, height, sha256 of RGBA16 samples as little-endian UInt16 (R,G,B,A per pixel,
#   row-major, no padding), decoded with pypng's raw Reader.read(): samples unchanged (no sBIT
#   shift), grey -> R=G=B, alpha = the alpha channel, else 0 where the 16-bit tRNS key matches
#   all colour samples and 65535 elsewhere, else 65535.
set -euo pipefail

FIX=Tests/Fixtures
SUITE=$FIX/pngsuite
REFDECODE=../shared/tools/refdecode.py
[ -d "$SUITE" ] || { echo "run from the project root ($SUITE not found)" >&2; exit 1; }
[ -f "$REFDECODE" ] || { echo "$REFDECODE not found (../shared must be present)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C

# --- RGBA8 via refdecode.py ------------------------------------------------------------------
failed=()
: > "$tmp/rows8"
for f in $(cd "$SUITE" && ls -1 *.png | grep -v '^x' | sort); do
  out="$tmp/${f%.png}"
  if ! python3 "$REFDECODE" decode "$SUITE/$f" -o "$out" > "$out.json" 2>"$out.err"; then
    failed+=("$f"); continue
  fi
  read -r w h < <(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); assert m["frame_count"]==1, m; print(m["width"], m["height"])' "$out/meta.json")
  size=$(stat -c %s "$out/frame_0000.rgba")
  [ "$size" -eq $((w * h * 4)) ] || { echo "$f: frame_0000.rgba is $size bytes, expected ${w}x${h}x4" >&2; exit 1; }
  sha=$(sha256sum "$out/frame_0000.rgba" | cut -d' ' -f1)
  printf '%s\t%s\t%s\t%s\n' "$f" "$w" "$h" "$sha" >> "$tmp/rows8"
done

# Files refdecode.py handles with a documented workaround (see its docstring), found from the
# chunks: 16-bit + tRNS (Pillow keeps only the key's high byte -> pypng path, key matched on
# 16-bit samples) and 1/2/4-bit grey + tRNS (Pillow leaves the key unscaled -> key scaled here).
python3 - "$SUITE" > "$tmp/caveats" <<'EOF'
import os, struct, sys
suite = sys.argv[1]
t16, tlow, all16, sbit16 = [], [], [], []
for f in sorted(os.listdir(suite)):
    if not f.endswith('.png') or f.startswith('x'):
        continue
    d = open(os.path.join(suite, f), 'rb').read()
    depth, ctype = d[24], d[25]
    chunks, p = set(), 8
    while p + 8 <= len(d):
        n, t = struct.unpack('>I4s', d[p:p + 8])
        chunks.add(t)
        p += 12 + n
        if t == b'IEND':
            break
    if depth == 16:
        all16.append(f[:-4])
        if b'sBIT' in chunks:
            sbit16.append(f[:-4])
    if b'tRNS' in chunks and depth == 16:
        t16.append(f)
    if b'tRNS' in chunks and ctype == 0 and depth < 8:
        tlow.append(f)
print('# refdecode caveat, 16-bit tRNS (decoded via pypng, key matched on 16-bit samples): ' + (' '.join(t16) or 'none'))
print('# refdecode caveat, 1/2/4-bit grey tRNS (key scaled like the samples, then applied): ' + (' '.join(tlow) or 'none'))
print(f'# all {len(all16)} 16-bit files go through refdecode\'s pypng path (not Pillow); sBIT is never applied'
      f' (16-bit files with sBIT: {" ".join(sbit16) or "none"}).')
EOF

pyver=$(python3 -c 'import PIL, png, numpy, sys; print(f"Python {sys.version.split()[0]}, Pillow {PIL.__version__}, pypng {png.__version__}, numpy {numpy.__version__}")')
n8=$(wc -l < "$tmp/rows8")
{
  echo "# PngSuite RGBA8 reference: file<TAB>width<TAB>height<TAB>sha256(straight-alpha RGBA8, row-major, no padding)"
  echo "# Generated from the project root by: Tests/Fixtures/make-pngsuite-reference.sh"
  echo "# which runs, for every Tests/Fixtures/pngsuite/*.png not named x*.png ($n8 files):"
  echo "#   python3 ../shared/tools/refdecode.py decode Tests/Fixtures/pngsuite/FILE -o TMPDIR   (default --png16 strip: v>>8)"
  echo "#   sha256sum TMPDIR/frame_0000.rgba        (width/height from TMPDIR/meta.json)"
  echo "# ($pyver)"
  echo "# No gamma, no colour management, no sBIT shift; tRNS -> alpha; x*.png are deliberately corrupt and excluded."
  cat "$tmp/caveats"
  if [ ${#failed[@]} -gt 0 ]; then echo "# refdecode.py FAILED on: ${failed[*]} (no line below)"; else echo "# refdecode.py decoded every valid file."; fi
  cat "$tmp/rows8"
} > "$FIX/pngsuite-reference.tsv"

# --- RGBA16 via pypng ------------------------------------------------------------------------
python3 - "$SUITE" > "$tmp/rows16" <<'EOF'
import hashlib, os, sys
import numpy as np
import png

suite = sys.argv[1]
for f in sorted(os.listdir(suite)):
    if not f.endswith('.png') or f.startswith('x'):
        continue
    path = os.path.join(suite, f)
    with open(path, 'rb') as fh:
        head = fh.read(26)
    if head[24] != 16:          # IHDR bit depth
        continue
    w, h, rows, info = png.Reader(filename=path).read()
    planes = info['planes']
    a = np.vstack([np.asarray(r, dtype=np.uint32) for r in rows]).reshape(h, w, planes)
    key = info.get('transparent')
    if info['greyscale']:
        g = a[..., 0]
        rgb = [g, g, g]
        if info['alpha']:
            al = a[..., 1]
        elif key is not None:
            al = np.where(g == key[0], 0, 65535)
        else:
            al = np.full(g.shape, 65535)
    else:
        rgb = [a[..., 0], a[..., 1], a[..., 2]]
        if info['alpha']:
            al = a[..., 3]
        elif key is not None:
            al = np.where((a[..., :3] == np.asarray(key, dtype=np.uint32)).all(axis=-1), 0, 65535)
        else:
            al = np.full(a.shape[:2], 65535)
    out = np.dstack(rgb + [al]).astype('<u2')
    assert out.shape == (h, w, 4)
    print(f'{f}\t{w}\t{h}\t{hashlib.sha256(out.tobytes()).hexdigest()}')
EOF
n16=$(wc -l < "$tmp/rows16")
{
  echo "# PngSuite RGBA16 reference: file<TAB>width<TAB>height<TAB>sha256(RGBA16 samples as little-endian UInt16, R,G,B,A per pixel, row-major, no padding)"
  echo "# Generated from the project root by: Tests/Fixtures/make-pngsuite-reference.sh ($n16 files: every valid PngSuite file with IHDR bit depth 16, byte 24)"
  echo "# Decoder: pypng png.Reader(filename=FILE).read() (raw samples), in the script's second python3 block ($pyver)"
  echo "# Samples unchanged (no sBIT shift, no gamma); grey -> R=G=B; alpha = alpha channel, else tRNS 16-bit key match -> 0 else 65535, else 65535."
  cat "$tmp/rows16"
} > "$FIX/pngsuite-reference16.tsv"

echo "pngsuite-reference.tsv: $n8 files; pngsuite-reference16.tsv: $n16 files; refdecode failures: ${#failed[@]} ${failed[*]:-}"
[ ${#failed[@]} -eq 0 ]
