#!/usr/bin/env bash
# Regenerates Tests/Fixtures/jxl/: small JPEG XL files copied from the shared corpus (../shared/corpus: the JPEG XL
# conformance suite, jxl-rs and jxl-oxide test files) and three made here with cjxl (Debian's libjxl-tools 0.7).
# Run from the project root: Tests/Fixtures/make-jxl-fixtures.sh
set -euo pipefail
OUT=Tests/Fixtures/jxl
CORPUS=../shared/corpus
[ -d "$CORPUS" ] || { echo "$CORPUS not found (run from the project root with ../shared present)" >&2; exit 1; }
mkdir -p "$OUT"
RS=$CORPUS/jxl-rs/jxl/resources/test
for f in 3x3_srgb_lossless 3x3a_srgb_lossless 3x3_srgb_lossy 3x3a_srgb_lossy 3x3_jpeg_recompression basic 8x8_noise \
         gray_alpha_lossless has_permutation_with_container lossy_with_icc \
         patch_y_out_of_bounds orientation1_identity orientation2_flip_horizontal orientation3_rotate_180 \
         orientation4_flip_vertical orientation5_transpose orientation6_rotate_90_cw orientation7_anti_transpose \
         orientation8_rotate_90_ccw; do
  cp "$RS/$f.jxl" "$OUT/$f.jxl"
done
cp "$CORPUS/jxl-rs/jxl/tests/testdata/5_frames_numbered_jxli.jxl" "$OUT/"
for t in alpha_nonpremultiplied alpha_premultiplied grayscale blendmodes; do
  cp "$CORPUS/jxl-conformance/testcases/$t/input.jxl" "$OUT/conformance-$t.jxl"
done
# Hostile inputs (must give typed errors): jxl-oxide's fuzzer findings and one of jxl-rs's.
for f in bitstream_u32_overflow cluster_hole container_small_jxlp invalid_lz77 hybrid_integer_bits icc_large_stride \
         extensions_overflow invalid_alpha_ref; do
  cp "$CORPUS/jxl-oxide/crates/jxl-oxide-tests/tests/fuzz_findings/$f.fuzz" "$OUT/bad-$f.jxl"
done
cp "$CORPUS/jxl-rs/jxl/tests/testdata/fuzzer_smallbuffer_overflow.jxl" "$OUT/bad-fuzzer_smallbuffer_overflow.jxl"
# Not in the corpus, kept as committed: jxl/square-extended-size-container.jxl, libjxl's own test file
# (github.com/libjxl/testdata, jxl/boxes/, commit 73695d3): a container whose jxlc box has an extended (64-bit) size.
# Made with cjxl: a JPEG recompressed losslessly (the JPEG-reconstruction path; a container, which the
# reconstruction data needs), a progressive lossy file, a lossless file forced into a container, a 16-bit lossless
# file with alpha.
cjxl --quiet --lossless_jpeg=1 Tests/Fixtures/jpeg/hat-444.jpg "$OUT/jpeg-recompressed.jxl"
cjxl --quiet -p -d 2 Tests/Fixtures/png/interlaced-hibiscus.png "$OUT/progressive.jxl"
cjxl --quiet --container=1 -d 0 Tests/Fixtures/pngsuite/basn6a08.png "$OUT/container-lossless.jxl"
cjxl --quiet -d 0 Tests/Fixtures/png/rgba16.png "$OUT/rgba16-lossless.jxl"
