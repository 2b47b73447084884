#!/usr/bin/env python3
"""Makes Tests/Fixtures/color: small images with real colour profiles, and their sRGB references.

Run from the package root with Pillow and numpy (PyPI), Debian's liblcms2-utils (tificc), libjpeg-turbo-progs
(jpegtran), icc-profiles-free, colord-data and libgs-common (the profiles), and /work/shared/corpus (two sources).
References are made by Little CMS's own tificc (-t0 -b: perceptual, black-point compensation, to its built-in sRGB)
from a TIFF holding the very samples the fixture holds (as Pillow decodes them), or for the non-ICC PNG chunks by
the colorimetric formula (matrix-shaper spaces: perceptual is relative colorimetric, black-point compensation has
nothing to do). Every reference is an 8-bit RGB(A) PNG.
"""
import io
import os
import struct
import subprocess
import tempfile
import zlib

import numpy as np
from PIL import Image, ImageCms

OUT = "Tests/Fixtures/color"
CORPUS = "/work/shared/corpus"
ICC = "/usr/share/color/icc"
PROFILES = {
    "adobergb": f"{ICC}/compatibleWithAdobeRGB1998.icc",
    "prophoto": f"{ICC}/colord/ProPhotoRGB.icc",
    "gray": f"{ICC}/Gray.icc",
    "cmyk": f"{ICC}/ghostscript/default_cmyk.icc",
}


def read(path):
    with open(path, "rb") as f:
        return f.read()


def pattern16(size=64):
    """A smooth, saturated 16-bit RGB test pattern: hue around, lightness down, a grey ramp at the bottom."""
    y, x = np.mgrid[0:size, 0:size].astype(np.float64) / (size - 1)
    hue = x * 6.0
    sector = np.floor(hue) % 6
    f = hue - np.floor(hue)
    ones, zeros = np.ones_like(f), np.zeros_like(f)
    table = [(ones, f, zeros), (1 - f, ones, zeros), (zeros, ones, f), (zeros, 1 - f, ones), (f, zeros, ones),
             (ones, zeros, 1 - f)]
    rgb = np.zeros((size, size, 3))
    for s, (r, g, b) in enumerate(table):
        mask = sector == s
        for c, v in enumerate((r, g, b)):
            rgb[..., c][mask] = v[mask]
    value = 1.0 - 0.8 * y
    saturation = 0.35 + 0.65 * (1 - y)
    rgb = (rgb * saturation[..., None] + (1 - saturation[..., None])) * value[..., None]
    rgb[size - 8:, :, :] = x[size - 8:, :, None]  # grey ramp
    return np.round(rgb * 65535).astype(np.uint16)


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def write_png(path, samples, bit_depth, colour_type, extra_chunks):
    """A PNG of `samples` (H x W x C, uint8 or uint16) with the given chunks before IDAT."""
    height, width = samples.shape[:2]
    raw = b"".join(b"\0" + samples[row].astype(">u2" if bit_depth == 16 else "u1").tobytes() for row in range(height))
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0))
    for kind, body in extra_chunks:
        data += chunk(kind, body)
    data += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)


def iccp(profile, name=b"ICC profile"):
    return (b"iCCP", name + b"\0\0" + zlib.compress(profile, 9))


def write_tiff(path, samples, profile, photometric):
    """An uncompressed, contiguous TIFF of `samples` (H x W x C, uint8 or uint16) with the ICC profile (34675)."""
    height, width, channels = samples.shape
    bits = 16 if samples.dtype == np.uint16 else 8
    pixels = samples.astype("<u2" if bits == 16 else "u1").tobytes()
    entries = []

    def entry(tag, kind, count, value):
        entries.append((tag, kind, count, value))

    header = 8
    bits_offset = header
    extra = struct.pack("<" + "H" * channels, *([bits] * channels))
    profile_offset = bits_offset + len(extra)
    pixel_offset = profile_offset + len(profile) + (len(profile) & 1)
    entry(256, 4, 1, width)
    entry(257, 4, 1, height)
    entry(258, 3, channels, bits_offset if channels > 2 else bits)
    entry(259, 3, 1, 1)
    entry(262, 3, 1, photometric)
    entry(273, 4, 1, pixel_offset)
    entry(277, 3, 1, channels)
    entry(278, 4, 1, height)
    entry(279, 4, 1, len(pixels))
    entry(284, 3, 1, 1)
    if photometric == 5:
        entry(332, 3, 1, 1)  # InkSet CMYK
    entry(34675, 7, len(profile), profile_offset)
    ifd_offset = pixel_offset + len(pixels)
    body = bytearray(b"II*\0" + struct.pack("<I", ifd_offset))
    body += extra + profile + (b"\0" if len(profile) & 1 else b"") + pixels
    body += struct.pack("<H", len(entries))
    for tag, kind, count, value in sorted(entries):
        if kind == 3 and count == 1:
            body += struct.pack("<HHIHH", tag, kind, count, value, 0)
        else:
            body += struct.pack("<HHII", tag, kind, count, value)
    body += struct.pack("<I", 0)
    with open(path, "wb") as f:
        f.write(body)


def tificc_reference(samples, profile, photometric, out_png, alpha=None):
    """tificc -t0 -b of `samples` in `profile` to 8-bit sRGB, saved as PNG (with `alpha` put back)."""
    with tempfile.TemporaryDirectory() as work:
        source, target = os.path.join(work, "in.tif"), os.path.join(work, "out.tif")
        icc_path = os.path.join(work, "in.icc")
        with open(icc_path, "wb") as f:
            f.write(profile)
        write_tiff(source, samples, profile, photometric)
        subprocess.run(["tificc", "-t0", "-b", "-w8", f"-i{icc_path}", "-o*sRGB", source, target], check=True)
        image = Image.open(target).convert("RGB")
        if alpha is not None:
            image.putalpha(Image.fromarray(alpha))
        image.save(out_png, optimize=True)


def formula_reference(samples8, primaries, decode, out_png):
    """The colorimetric conversion of 8-bit RGB in a matrix-shaper space (D65 white) to sRGB."""
    def matrix(p):
        (wx, wy), rgb = p[0], p[1:]
        columns = np.array([[x / y, 1.0, (1 - x - y) / y] for x, y in rgb]).T
        white = np.array([wx / wy, 1.0, (1 - wx - wy) / wy])
        return columns * np.linalg.solve(columns, white)

    srgb = [(0.3127, 0.3290), (0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]
    linear = decode(samples8.astype(np.float64) / 255.0)
    converted = linear @ (np.linalg.inv(matrix(srgb)) @ matrix(primaries)).T
    converted = np.clip(converted, 0, 1)
    encoded = np.where(converted <= 0.0031308, converted * 12.92, 1.055 * converted ** (1 / 2.4) - 0.055)
    Image.fromarray(np.round(encoded * 255).astype(np.uint8)).save(out_png, optimize=True)


def srgb_decode(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def main():
    os.makedirs(OUT, exist_ok=True)
    p16 = pattern16()
    p8 = (p16 >> 8).astype(np.uint8)

    # Display P3: a 64x64 crop of a real phone-style photo (Nuke's fixture), losslessly with jpegtran.
    subprocess.run(["jpegtran", "-copy", "all", "-crop", "64x64+256+160", "-outfile", f"{OUT}/p3.jpg",
                    f"{CORPUS}/nuke/Tests/Resources/image-p3.jpg"], check=True)
    # Display P3 with alpha (Kingfisher's fixture, as it is).
    with open(f"{OUT}/p3-alpha.png", "wb") as f:
        f.write(read(f"{CORPUS}/kingfisher/Tests/KingfisherTests/PixelFormats/gradient-8b-displayp3-alpha.png"))
    # Adobe RGB (compatible profile), JPEG quality 95.
    Image.fromarray(p8).save(f"{OUT}/adobergb.jpg", quality=95, icc_profile=read(PROFILES["adobergb"]))
    # ProPhoto (a v4 profile), 16-bit PNG: converted at 16 bits before narrowing.
    write_png(f"{OUT}/prophoto16.png", p16, 16, 2, [iccp(read(PROFILES["prophoto"]))])
    # Grey with a gamma profile, 8-bit PNG.
    grey = p8[..., 1].copy()
    write_png(f"{OUT}/gray.png", grey[..., None], 8, 0, [iccp(read(PROFILES["gray"]))])
    # CMYK with a press profile (Artifex's SWOP), separated by lcms, saved by Pillow (Adobe marker, inverted).
    rgb = Image.fromarray(p8)
    cmyk = ImageCms.profileToProfile(rgb, ImageCms.createProfile("sRGB"), PROFILES["cmyk"], outputMode="CMYK",
                                     renderingIntent=0)
    cmyk.save(f"{OUT}/cmyk.jpg", quality=95, icc_profile=read(PROFILES["cmyk"]))
    # Non-ICC descriptions: gAMA + cHRM (gamma 2.0, Display P3 primaries) and cICP (Display P3, sRGB curve).
    p3 = [(0.3127, 0.3290), (0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
    chrm = struct.pack(">8I", *[round(v * 100000) for xy in p3 for v in xy])
    write_png(f"{OUT}/gama-chrm.png", p8, 8, 2, [(b"gAMA", struct.pack(">I", 50000)), (b"cHRM", chrm)])
    write_png(f"{OUT}/cicp-p3.png", p8, 8, 2, [(b"cICP", bytes([12, 13, 0, 1]))])
    write_png(f"{OUT}/srgb-chunk.png", p8[:4, :4], 8, 2, [(b"sRGB", bytes([0]))])
    # The same P3 pixels as WebP (lossless) and TIFF with the ICC profile, for the formats' metadata.
    p3_profile = Image.open(f"{OUT}/p3.jpg").info["icc_profile"]
    Image.fromarray(p8).save(f"{OUT}/p3.webp", lossless=True, icc_profile=p3_profile)
    Image.fromarray(p8).save(f"{OUT}/p3.tif", compression="tiff_deflate", icc_profile=p3_profile)
    # A profile that is not one: the P3 JPEG with its APP2 profile's tag table overwritten.
    jpeg = bytearray(read(f"{OUT}/p3.jpg"))
    at = jpeg.find(b"ICC_PROFILE\0") + 14  # after the chunk numbers: the profile's first byte
    jpeg[at + 128:at + 128 + 64] = b"\xff" * 64
    with open(f"{OUT}/bad-profile.jpg", "wb") as f:
        f.write(jpeg)

    # References.
    def decoded(name, mode):
        return np.array(Image.open(f"{OUT}/{name}").convert(mode) if mode else Image.open(f"{OUT}/{name}"))

    tificc_reference(decoded("p3.jpg", "RGB"), p3_profile, 2, f"{OUT}/p3.ref.png")
    p3a = Image.open(f"{OUT}/p3-alpha.png")
    p3a_samples = np.array(p3a.convert("RGBA"))
    tificc_reference(p3a_samples[..., :3].copy(), p3a.info["icc_profile"], 2, f"{OUT}/p3-alpha.ref.png",
                     alpha=p3a_samples[..., 3].copy())
    tificc_reference(decoded("adobergb.jpg", "RGB"), read(PROFILES["adobergb"]), 2, f"{OUT}/adobergb.ref.png")
    tificc_reference(p16, read(PROFILES["prophoto"]), 2, f"{OUT}/prophoto16.ref.png")
    tificc_reference(grey[..., None], read(PROFILES["gray"]), 1, f"{OUT}/gray.ref.png")
    # Pillow undoes the Adobe inversion: its CMYK samples are ink amounts, as the TIFF wants them.
    tificc_reference(decoded("cmyk.jpg", None), read(PROFILES["cmyk"]), 5, f"{OUT}/cmyk.ref.png")
    formula_reference(p8, p3, lambda v: v ** 2.0, f"{OUT}/gama-chrm.ref.png")
    formula_reference(p8, p3, srgb_decode, f"{OUT}/cicp-p3.ref.png")


if __name__ == "__main__":
    main()
