#!/usr/bin/env bash
# Makes the two WebP fixtures that no corpus file provides, with libwebp's own tools (Debian 12 package `webp`,
# libwebp 1.2.4): run from the project root.
#
# webp/made-metadata-orientation6.webp
#   32x20 lossless with alpha (pngsuite basn6a08.png cropped), ICCP (the 672-byte profile of
#   png/exif-orientation6-iccp.png), EXIF (that file's eXIf block: orientation 6) and a small XMP packet.
# webp/made-blend-dispose.webp
#   48x40 canvas, loop count 3, 4 lossless frames that exercise both blending and disposal:
#     0: basn6a08 (alpha)  at (0,0)   80 ms, dispose to background, blend
#     1: tbrn2c08 (opaque) at (16,8)  30 ms, no dispose,          no blend
#     2: basn6a08 16x16    at (8,16)   5 ms, dispose to background, blend  (5 ms plays as 100 ms)
#     3: basn6a08 16x16    at (24,20) 40 ms, no dispose,          blend
set -euo pipefail
FIX=Tests/Fixtures
[ -d "$FIX/webp" ] || { echo "run from the project root" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$FIX/png/exif-orientation6-iccp.png" "$tmp" <<'PY'
import struct, sys, zlib
data, out = open(sys.argv[1], 'rb').read(), sys.argv[2]
p = 8
while p < len(data):
    n, t = struct.unpack('>I4s', data[p:p + 8])
    body = data[p + 8:p + 8 + n]
    if t == b'eXIf':
        open(out + '/exif.bin', 'wb').write(body)
    if t == b'iCCP':
        name_end = body.index(b'\0')
        open(out + '/icc.icc', 'wb').write(zlib.decompress(body[name_end + 2:]))
    p += 12 + n
open(out + '/xmp.xml', 'wb').write(b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>')
PY

cwebp -quiet -lossless -exact -crop 0 0 32 20 "$FIX/pngsuite/basn6a08.png" -o "$tmp/still.webp"
webpmux -set icc "$tmp/icc.icc" "$tmp/still.webp" -o "$tmp/icc.webp"
webpmux -set exif "$tmp/exif.bin" "$tmp/icc.webp" -o "$tmp/exif.webp"
webpmux -set xmp "$tmp/xmp.xml" "$tmp/exif.webp" -o "$FIX/webp/made-metadata-orientation6.webp"

cwebp -quiet -lossless -exact "$FIX/pngsuite/basn6a08.png" -o "$tmp/a.webp"
cwebp -quiet -lossless -exact "$FIX/pngsuite/tbrn2c08.png" -o "$tmp/b.webp"
cwebp -quiet -lossless -exact -crop 8 8 16 16 "$FIX/pngsuite/basn6a08.png" -o "$tmp/c.webp"
webpmux -frame "$tmp/a.webp" +80+0+0+1+b \
        -frame "$tmp/b.webp" +30+16+8+0-b \
        -frame "$tmp/c.webp" +5+8+16+1+b \
        -frame "$tmp/c.webp" +40+24+20+0+b \
        -loop 3 -bgcolor 255,255,255,255 -o "$tmp/anim.webp"
# webpmux sizes the canvas to the frames' extent (48x40 here).
cp "$tmp/anim.webp" "$FIX/webp/made-blend-dispose.webp"
