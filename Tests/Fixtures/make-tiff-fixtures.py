#!/usr/bin/env python3
"""Makes Tests/Fixtures/tiff/: corpus TIFFs copied from ../shared/corpus, and small files written with libtiff itself
(through ctypes, so every byte comes from the library the coder uses) for layouts the corpus lacks.

Run from the project root: python3 Tests/Fixtures/make-tiff-fixtures.py
Needs ../shared/corpus and Debian's libtiff6 (libtiff.so.6). Then run Tests/Fixtures/make-tiff-reference.sh.
"""
import ctypes, os, shutil, sys

CORPUS = '../shared/corpus'
OUT = 'Tests/Fixtures/tiff'

# corpus path -> fixture name. Every file here is one Pillow decodes (manifest column 5 "yes").
COPIES = {
    'image-rs-bmp-ico-tiff/tests/images/tiff/testsuite/cmyk_u8_edge_case.tif': 'cmyk_u8_edge_case.tif',
    'image-rs-bmp-ico-tiff/tests/images/tiff/testsuite/cmyk_u8_trunc_case.tif': 'cmyk_u8_trunc_case.tif',
    'image-rs-bmp-ico-tiff/tests/regression/tiff/clusterfuzz-testcase-minimized-fuzzer_script_tiff-5026894169374720.tif':
        'jpeg-planar-rgba-clusterfuzz.tif',
    'image-rs-bmp-ico-tiff/tests/images/tiff/testsuite/fax4.tiff': 'fax4.tiff',
    'image-rs-bmp-ico-tiff/tests/images/tiff/testsuite/hpredict.tiff': 'hpredict.tiff',
    'image-rs-bmp-ico-tiff/tests/images/tiff/testsuite/hpredict_packbits.tiff': 'hpredict_packbits.tiff',
    'image-rs-bmp-ico-tiff/tests/images/tiff/testsuite/l1.tiff': 'l1.tiff',
    'image-rs-bmp-ico-tiff/tests/images/tiff/testsuite/l1_xmp.tiff': 'l1_xmp.tiff',
    'image-tiff/tests/decodedata-rgb-3c-8b.tiff': 'decodedata-rgb-3c-8b.tiff',
    'image-tiff/tests/benches/Transparency-lzw.tif': 'Transparency-lzw.tif',
    'image-tiff/tests/images/bigtiff/BigTIFF.tif': 'BigTIFF.tif',
    'image-tiff/tests/images/bigtiff/BigTIFFLong.tif': 'BigTIFFLong.tif',
    'image-tiff/tests/libtiffpic/depth/flower-minisblack-02.tif': 'flower-minisblack-02.tif',
    'image-tiff/tests/libtiffpic/depth/flower-minisblack-04.tif': 'flower-minisblack-04.tif',
    'image-tiff/tests/libtiffpic/depth/flower-minisblack-08.tif': 'flower-minisblack-08.tif',
    'image-tiff/tests/images/12bit.cropped.tiff': '12bit.cropped.tiff',
    'image-tiff/tests/images/big_g4.tif': 'big_g4.tif',
    'image-tiff/tests/images/seq/seq-1c-12b-47c39b31.tiff': 'seq-1c-12b-47c39b31.tiff',
    'image-tiff/tests/libtiffpic/fax2d.tif': 'fax2d.tif',
    'image-tiff/tests/fuzz_images/oor_panic/id=000019,sig=06,src=000001,op=havoc,rep=8': 'grey16-bigendian-fuzz.tif',
    'twelvemonkeys/imageio/imageio-metadata/src/test/resources/exif/emptyexiftag.tif': 'emptyexiftag-3pages.tif',
    'twelvemonkeys/imageio/imageio-metadata/src/test/resources/exif/noeof.tif': 'noeof.tif',
    'twelvemonkeys/imageio/imageio-tiff/src/test/resources/tiff/CCITT-G4-300dpi-StripByteCounts0.tif':
        'CCITT-G4-300dpi-StripByteCounts0.tif',
    'twelvemonkeys/imageio/imageio-tiff/src/test/resources/bigtiff/BigTIFFLong8.tif': 'BigTIFFLong8.tif',
    'twelvemonkeys/imageio/imageio-tiff/src/test/resources/tiff/CCITTgetNextChangingElement.tif':
        'CCITTgetNextChangingElement.tif',
    'twelvemonkeys/imageio/imageio-tiff/src/test/resources/tiff/ccitt/group3_1d.tif': 'group3_1d.tif',
    'twelvemonkeys/imageio/imageio-tiff/src/test/resources/tiff/guessPhotometric/group4.tif': 'group4-no-photometric.tif',
    'twelvemonkeys/imageio/imageio-tiff/src/test/resources/bigtiff/BigTIFFLong8Tiles.tif': 'BigTIFFLong8Tiles.tif',
    'twelvemonkeys/imageio/imageio-tiff/src/test/resources/tiff/ColorCheckerCalculator.tif': 'ColorCheckerCalculator-lab.tif',
    'twelvemonkeys/imageio/imageio-tiff/src/test/resources/tiff/ccitt/group3_1d_fill.tif': 'group3_1d_fill.tif',
    'twelvemonkeys/imageio/imageio-tiff/src/test/resources/tiff/a33.tif': 'a33.tif',
    'twelvemonkeys/imageio/imageio-tiff/src/test/resources/tiff/ccitt/group3_2d.tif': 'group3_2d.tif',
    'twelvemonkeys/imageio/imageio-tiff/src/test/resources/tiff/pixtiff/58-plexustiff-binary-ccitt-group4.tif':
        '58-plexustiff-binary-ccitt-group4.tif',
    'serenity-libgfx/Tests/LibGfx/test-inputs/icc/icc.tiff': 'icc.tiff',
    'serenity-libgfx/Tests/LibGfx/test-inputs/tiff/16_bits.tiff': '16_bits.tiff',
    'serenity-libgfx/Tests/LibGfx/test-inputs/tiff/alpha_predictor.tiff': 'alpha_predictor.tiff',
    'serenity-libgfx/Tests/LibGfx/test-inputs/tiff/ccitt3.tiff': 'ccitt3.tiff',
    'serenity-libgfx/Tests/LibGfx/test-inputs/tiff/ccitt3_2d.tiff': 'ccitt3_2d.tiff',
    'serenity-libgfx/Tests/LibGfx/test-inputs/tiff/ccitt3_2d_fill.tiff': 'ccitt3_2d_fill.tiff',
    'serenity-libgfx/Tests/LibGfx/test-inputs/tiff/ccitt3_no_tags.tiff': 'ccitt3_no_tags.tiff',
    'serenity-libgfx/Tests/LibGfx/test-inputs/tiff/ccitt4.tiff': 'ccitt4.tiff',
    'serenity-libgfx/Tests/LibGfx/test-inputs/tiff/ccitt_rle.tiff': 'ccitt_rle.tiff',
    'serenity-libgfx/Tests/LibGfx/test-inputs/tiff/cmyk-small.tif': 'cmyk-small.tif',
    'peers-newfmt/sharp/test/fixtures/8bit_depth.tiff': '8bit_depth.tiff',
    'peers-newfmt/weserv/test/api/fixtures/expected/extract.tiff': 'extract-jpeg.tiff',
}

# Files Pillow refuses (manifest column 5 "no") that the coder must answer with a typed error or an image, never a
# crash: every such TIFF under 4 KB from the fuzzing folders, plus a float file and a 10-bit one.
HOSTILE_DIRS = ['image-tiff/tests/fuzz_images', 'serenity-libgfx/Tests/LibGfx/test-inputs/tiff/fuzz']
HOSTILE_EXTRA = ['image-tiff/tests/images/seq/seq-1c-10b-6d739fa2.tiff',
                 'image-tiff/tests/fuzz_images/oor_panic/colormap-shl-overflow.tiff',
                 'twelvemonkeys/imageio/imageio-metadata/src/test/resources/exif/value-beyond-eof.tif',
                 'twelvemonkeys/imageio/imageio-metadata/src/test/resources/tiff/ifd-end-pointer.tif']


def copy_corpus():
    for source, name in COPIES.items():
        shutil.copyfile(os.path.join(CORPUS, source), os.path.join(OUT, name))
    rows = [line.rstrip('\n').split('\t') for line in open(os.path.join(CORPUS, 'manifest.tsv'))]
    hostile = [r[0] for r in rows[1:] if len(r) > 4 and r[1] == 'tiff' and r[4] == 'no' and int(r[3]) < 4096
               and any(r[0].startswith(d) for d in HOSTILE_DIRS)] + HOSTILE_EXTRA
    for i, source in enumerate(sorted(set(hostile))):
        name = f'{i:02d}-' + os.path.basename(source).replace(',', '_').replace('=', '-')[:48]
        shutil.copyfile(os.path.join(CORPUS, source), os.path.join(OUT, 'hostile', name))


# ---------------------------------------------------------------- files written with libtiff

lib = ctypes.CDLL('libtiff.so.6')
lib.TIFFOpen.restype = ctypes.c_void_p
lib.TIFFOpen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
for f in ('TIFFWriteScanline', 'TIFFWriteTile', 'TIFFWriteDirectory', 'TIFFClose', 'TIFFSetField'):
    getattr(lib, f).restype = ctypes.c_int

TAGS = dict(width=256, height=257, bps=258, compression=259, photometric=262, orientation=274, spp=277,
            rowsperstrip=278, planar=284, predictor=317, tilewidth=322, tilelength=323, colormap=320, extra=338,
            subfiletype=254, inkset=332)


def setfield(tif, tag, *values):
    args = []
    for v in values:
        args.append(v if isinstance(v, ctypes._SimpleCData) or isinstance(v, ctypes.Array) else ctypes.c_uint(v))
    if lib.TIFFSetField(ctypes.c_void_p(tif), ctypes.c_uint(TAGS[tag]), *args) != 1:
        sys.exit(f'TIFFSetField {tag} failed')


def sample_bytes(values, bits):
    """Packs unsigned samples MSB-first (bits < 8), as bytes (8) or host-endian uint16 (16)."""
    if bits == 16:
        return (ctypes.c_uint16 * len(values))(*values)
    if bits == 8:
        return (ctypes.c_uint8 * len(values))(*values)
    out, acc, n = [], 0, 0
    for v in values:
        acc = (acc << bits) | v
        n += bits
        while n >= 8:
            n -= 8
            out.append((acc >> n) & 0xFF)
    if n:
        out.append((acc << (8 - n)) & 0xFF)
    return (ctypes.c_uint8 * len(out))(*out)


def write(name, pages):
    """pages: list of dicts with width, height, bits, spp, photometric, compression, pixel(x, y) -> samples,
    and optional tile, planar, extra, orientation, colormap, inkset, rowsperstrip."""
    tif = lib.TIFFOpen(os.path.join(OUT, name).encode(), b'w')
    for number, p in enumerate(pages):
        w, h, bits, spp = p['width'], p['height'], p['bits'], p['spp']
        setfield(tif, 'width', w); setfield(tif, 'height', h)
        setfield(tif, 'bps', bits); setfield(tif, 'spp', spp)
        setfield(tif, 'photometric', p['photometric']); setfield(tif, 'compression', p['compression'])
        setfield(tif, 'planar', p.get('planar', 1))
        if len(pages) > 1:
            setfield(tif, 'subfiletype', 2)
        if 'orientation' in p: setfield(tif, 'orientation', p['orientation'])
        if 'predictor' in p: setfield(tif, 'predictor', p['predictor'])
        if 'inkset' in p: setfield(tif, 'inkset', p['inkset'])
        if 'extra' in p:
            setfield(tif, 'extra', 1, (ctypes.c_uint16 * 1)(p['extra']))
        if 'colormap' in p:
            r, g, b = p['colormap']
            setfield(tif, 'colormap', (ctypes.c_uint16 * len(r))(*r), (ctypes.c_uint16 * len(g))(*g),
                     (ctypes.c_uint16 * len(b))(*b))
        planes = [list(range(spp))] if p.get('planar', 1) == 1 else [[s] for s in range(spp)]
        if 'tile' in p:
            tw, th = p['tile']
            setfield(tif, 'tilewidth', tw); setfield(tif, 'tilelength', th)
            for plane_index, plane in enumerate(planes):
                for ty in range(0, h, th):
                    for tx in range(0, w, tw):
                        values = []
                        for y in range(ty, ty + th):
                            for x in range(tx, tx + tw):
                                px = p['pixel'](x, y) if x < w and y < h else [0] * spp
                                values += [px[s] for s in plane]
                        buf = sample_bytes(values, bits)
                        if lib.TIFFWriteTile(ctypes.c_void_p(tif), buf, tx, ty, 0, plane_index) < 0:
                            sys.exit('TIFFWriteTile failed')
        else:
            setfield(tif, 'rowsperstrip', p.get('rowsperstrip', 8))
            for plane_index, plane in enumerate(planes):
                for y in range(h):
                    values = []
                    for x in range(w):
                        px = p['pixel'](x, y)
                        values += [px[s] for s in plane]
                    buf = sample_bytes(values, bits)
                    if lib.TIFFWriteScanline(ctypes.c_void_p(tif), buf, y, plane_index) < 0:
                        sys.exit('TIFFWriteScanline failed')
        if lib.TIFFWriteDirectory(ctypes.c_void_p(tif)) != 1:
            sys.exit('TIFFWriteDirectory failed')
    lib.TIFFClose(ctypes.c_void_p(tif))


NONE, LZW, JPEG, DEFLATE, PACKBITS = 1, 5, 7, 8, 32773


def premultiplied(x, y):
    a = (x * 255 // 39 + y * 3) % 256
    return [(x * 6) * a // 255, (y * 8) * a // 255, ((x + y) * 3 % 256) * a // 255, a]


def make_generated():
    write('gen-tiled-assoc-alpha.tif', [dict(width=40, height=30, bits=8, spp=4, photometric=2, compression=DEFLATE,
                                             tile=(16, 16), extra=1, pixel=premultiplied)])
    write('gen-tiled-unassoc-alpha-lzw.tif', [dict(width=40, height=30, bits=8, spp=4, photometric=2,
                                                   compression=LZW, predictor=2, tile=(16, 16), extra=2,
                                                   pixel=lambda x, y: [x * 6, y * 8, (x * y) % 256,
                                                                       (x * 7 + y * 5) % 256])])
    write('gen-planar-rgb16-lzw.tif', [dict(width=33, height=21, bits=16, spp=3, photometric=2, compression=LZW,
                                            planar=2, pixel=lambda x, y: [x * 1900, y * 3000, (x * y * 97) % 65536])])
    write('gen-rgba16-deflate.tif', [dict(width=19, height=13, bits=16, spp=4, photometric=2, compression=DEFLATE,
                                          extra=2, pixel=lambda x, y: [x * 3300, y * 5000, 40000,
                                                                       (x + y) * 2100 + 1000])])
    ramp = [i * 4369 for i in range(16)]
    write('gen-palette4-packbits.tif', [dict(width=37, height=19, bits=4, spp=1, photometric=3,
                                             compression=PACKBITS, colormap=(ramp, ramp[::-1], [30000] * 16),
                                             pixel=lambda x, y: [(x // 3 + y) % 16])])
    write('gen-palette8.tif', [dict(width=20, height=12, bits=8, spp=1, photometric=3, compression=NONE,
                                    colormap=([i * 257 for i in range(256)], [(255 - i) * 257 for i in range(256)],
                                              [(i * 7 % 256) * 257 for i in range(256)]),
                                    pixel=lambda x, y: [(x * 13 + y * 11) % 256])])
    write('gen-miniswhite8.tif', [dict(width=25, height=17, bits=8, spp=1, photometric=0, compression=NONE,
                                       pixel=lambda x, y: [(x * 10 + y) % 256])])
    write('gen-orientation6.tif', [dict(width=30, height=20, bits=8, spp=3, photometric=2, compression=LZW,
                                        orientation=6, pixel=lambda x, y: [x * 8, y * 12, 128 if x < 5 else 0])])
    write('gen-cmyk-tiled-deflate.tif', [dict(width=32, height=32, bits=8, spp=4, photometric=5, compression=DEFLATE,
                                              inkset=1, tile=(16, 16),
                                              pixel=lambda x, y: [x * 8, y * 8, (x * y) % 256, (x + y) * 3])])
    write('gen-grey-alpha16.tif', [dict(width=15, height=9, bits=16, spp=2, photometric=1, compression=NONE,
                                        extra=2, pixel=lambda x, y: [x * 4000, 65535 - y * 7000])])
    write('gen-grey2-miniswhite-tiled.tif', [dict(width=35, height=20, bits=2, spp=1, photometric=0,
                                                  compression=LZW, tile=(16, 16),
                                                  pixel=lambda x, y: [(x + y) % 4])])
    write('gen-pages-sizes.tif', [dict(width=20, height=10, bits=8, spp=3, photometric=2, compression=LZW,
                                       pixel=lambda x, y: [x * 10, y * 20, 50]),
                                  dict(width=12, height=16, bits=8, spp=3, photometric=2, compression=DEFLATE,
                                       pixel=lambda x, y: [200, x * 20, y * 15]),
                                  dict(width=20, height=10, bits=1, spp=1, photometric=1, compression=PACKBITS,
                                       pixel=lambda x, y: [(x + y) % 2])])


if __name__ == '__main__':
    if not os.path.isdir(CORPUS):
        sys.exit(f'{CORPUS} not found: run from the project root with ../shared next to it')
    os.makedirs(os.path.join(OUT, 'hostile'), exist_ok=True)
    copy_corpus()
    make_generated()
    print(len(os.listdir(OUT)) - 1, 'fixtures and', len(os.listdir(os.path.join(OUT, 'hostile'))), 'hostile files')
