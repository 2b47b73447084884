#!/usr/bin/env bash
# Regenerates the generated HEIC/AVIF fixtures in Tests/Fixtures/heic/ (see Tests/Fixtures/SOURCES.md).
# Run from the project root with ../shared present. Needs heif-enc (Debian 12: apt-get install libheif-examples,
# libheif 1.15.1 with x265 3.5 and aom 3.6.0), gcc + libheif-dev, and python3 with Pillow.
# Encoders are deterministic: rerunning with the same libheif/x265/aom writes identical bytes.
set -euo pipefail
OUT=Tests/Fixtures/heic
CORPUS=../shared/corpus
HAT=$CORPUS/wuffs/test/data/hat.png                                             # 90x112 RGB8
GRADIENT=$CORPUS/kingfisher/Tests/KingfisherTests/PixelFormats/gradient-8b-srgb-alpha.png   # 64x64 RGBA8
GRADIENT16=$CORPUS/kingfisher/Tests/KingfisherTests/PixelFormats/gradient-16b-srgb-alpha.png # 64x64 RGBA16
[ -d "$OUT" ] && [ -f "$HAT" ] || { echo "run from the project root with ../shared present" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The sources the lossy fixtures are compared against (PSNR).
cp "$HAT" "$OUT/source-hat.png"
cp "$GRADIENT" "$OUT/source-gradient-alpha.png"
cp "$GRADIENT16" "$OUT/source-gradient16-alpha.png"
python3 - "$HAT" "$tmp" <<'PY'
import sys
from PIL import Image
hat = Image.open(sys.argv[1]).convert('RGB')
open(f'{sys.argv[2]}/hat.rgb', 'wb').write(hat.tobytes())
hat.crop((0, 0, 89, 111)).save(f'{sys.argv[2]}/hat-89x111.png')
open(f'{sys.argv[2]}/hat-89x111.rgb', 'wb').write(hat.crop((0, 0, 89, 111)).tobytes())
PY

# heif-enc (x265 preset slow, aom speed 6: its defaults), quality 90.
heif-enc -q 90 "$HAT" -o "$OUT/hat.heic"
heif-enc -q 90 -A "$HAT" -o "$OUT/hat.avif"
heif-enc -q 90 -t 48 "$HAT" -o "$OUT/hat-thumbnail48.heic"
heif-enc -q 90 "$GRADIENT" -o "$OUT/gradient-alpha.heic"
heif-enc -q 90 -A "$GRADIENT" -o "$OUT/gradient-alpha.avif"
# Auxiliary images that are not alpha: heif-enc 1.15 cannot write a depth map, so the alpha fixture's auxC type is
# rewritten in place (same length): HEVC's depth type (auxid:2) and a type no reader knows. The primary image's
# colour stays; nothing may be read as its alpha.
python3 - "$OUT" <<'PY'
import sys
alpha = open(f'{sys.argv[1]}/gradient-alpha.heic', 'rb').read()
for name, urn in (('depth-aux', b'urn:mpeg:hevc:2015:auxid:2'), ('unknown-aux', b'urn:com:example:aux:others')):
    assert alpha.count(b'urn:mpeg:hevc:2015:auxid:1') == 1
    open(f'{sys.argv[1]}/{name}.heic', 'wb').write(alpha.replace(b'urn:mpeg:hevc:2015:auxid:1', urn))
PY
# Lossless (RGB matrix, 4:4:4) twins: the second flags its alpha premultiplied ('prem' reference), so the same
# stored values are read as premultiplied colour. (heif-enc's lossless is within 1 level of the PNG, not exact.)
heif-enc -L -p chroma=444 --matrix_coefficients=0 -A "$GRADIENT" -o "$OUT/straight-lossless.avif"
heif-enc -L -p chroma=444 --matrix_coefficients=0 --premultiplied-alpha -A "$GRADIENT" -o "$OUT/premultiplied-lossless.avif"
# 10- and 12-bit HEVC from the 16-bit PNG (heif-enc -b). 10-bit AVIF cannot be made here: aom 3.6.0 under libheif
# 1.15 fails ("Failed to encode frame"), and without alpha hits an assertion in write_color_config that aborts.
heif-enc -q 90 -b 10 "$GRADIENT16" -o "$OUT/gradient16-10bit.heic"
heif-enc -q 90 -b 12 "$GRADIENT16" -o "$OUT/gradient16-12bit.heic"
# Two top-level images: the first (the gradient) is the primary one.
heif-enc -q 50 "$GRADIENT" "$HAT" -o "$OUT/two-images.heic"
# Odd sizes: heif-enc wraps the padded 90x112 HEVC image in a 89x111 grid item (libheif's default workaround).
heif-enc -q 90 "$tmp/hat-89x111.png" -o "$OUT/grid-89x111.heic"

# irot/imir/clap, which heif-enc cannot write: make-oriented.c on libheif's own API (same x265 settings, so
# every oriented file holds the same coded pixels as hat.heic; orientation 1 would write hat.heic byte for byte).
gcc -O2 -o "$tmp/make-oriented" "$OUT/make-oriented.c" $(pkg-config --cflags --libs libheif)
"$tmp/make-oriented" "$tmp/hat.rgb" 90 112 2 1 0 "$OUT/oriented-2.heic"
"$tmp/make-oriented" "$tmp/hat.rgb" 90 112 5 1 0 "$OUT/oriented-5.heic"
"$tmp/make-oriented" "$tmp/hat.rgb" 90 112 6 1 1 "$OUT/oriented-6-exif6.heic"
"$tmp/make-oriented" "$tmp/hat-89x111.rgb" 89 111 1 0 0 "$OUT/clap-89x111.heic"

# Pixel references: refdecode.py (Pillow + pillow-heif) per fixture, as size and SHA-256 of straight RGBA8.
{
  echo "# HEIF references: file<TAB>width<TAB>height<TAB>sha256(straight-alpha RGBA8, row-major) or ERROR:<message>"
  echo "# Generated from the project root by: Tests/Fixtures/heic/make-heic-fixtures.sh"
  echo "#   python3 ../shared/tools/refdecode.py decode Tests/Fixtures/FILE -o TMPDIR; sha256sum TMPDIR/frame_0000.rgba"
  echo "# ($(python3 -c 'import PIL, pillow_heif, sys; print(f"Python {sys.version.split()[0]}, Pillow {PIL.__version__}, pillow-heif {pillow_heif.__version__}, libheif {pillow_heif.libheif_version()}")'))"
  for f in $(cd Tests/Fixtures && ls -1 heic/*.heic heic/*.avif formats/*.heic formats/*.heif formats/*.avif | sort); do
    if python3 ../shared/tools/refdecode.py decode "Tests/Fixtures/$f" -o "$tmp/ref-${f//\//-}" > "$tmp/ref.json" 2>/dev/null; then
      read -r w h < <(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(m["width"], m["height"])' "$tmp/ref-${f//\//-}/meta.json")
      printf '%s\t%s\t%s\t%s\n' "$f" "$w" "$h" "$(sha256sum "$tmp/ref-${f//\//-}/frame_0000.rgba" | cut -d' ' -f1)"
    else
      printf '%s\t-\t-\tERROR:%s\n' "$f" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("error",""))' "$tmp/ref.json")"
    fi
  done
} > "$OUT/reference.tsv"
cat "$OUT/reference.tsv"

# Reference pixels for PSNR tests (straight RGBA8 PNGs of refdecode's frame): whole small images, and a centre
# 96x96 crop (at x, y below) of the two big real files.
mkdir -p "$OUT/reference"
python3 - "$tmp" "$OUT/reference" <<'PY'
import json, sys
import numpy as np
from PIL import Image
tmp, out = sys.argv[1:]
crops = {'formats/sample.heic': (672, 432), 'formats/sample.avif': (976, 381)}
for f in ['heic/hat.heic', 'heic/hat.avif', 'heic/gradient-alpha.heic', 'heic/gradient-alpha.avif',
          'heic/gradient-10b-alpha.heic', 'formats/sample-heix.heic', 'formats/sample.heic', 'formats/sample.avif']:
    d = f'{tmp}/ref-{f.replace("/", "-")}'
    m = json.load(open(f'{d}/meta.json'))
    a = np.fromfile(f'{d}/frame_0000.rgba', np.uint8).reshape(m['height'], m['width'], 4)
    name = f.replace('/', '-').rsplit('.', 1)
    if f in crops:
        x, y = crops[f]
        a = a[y:y + 96, x:x + 96]
        name[0] += f'-crop{x}x{y}'
    Image.fromarray(a, 'RGBA').save(f'{out}/{name[0]}.{name[1]}.png', optimize=True)
PY
ls -l "$OUT/reference"
