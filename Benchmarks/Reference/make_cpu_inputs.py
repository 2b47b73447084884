#!/usr/bin/env python3
"""Makes the inputs of the WebP, GIF, APNG and Transform workloads, deterministically, from the photo-like JPEG
that make_photo.py made (run it first).

  photo-2000x1500.webp     the photo resized (LANCZOS) to 2000x1500 with seeded noise added again (resizing
                           averages it away), lossy WebP quality 80
  graphic-1000x750.webp    a flat-colour drawing (gradient bands, shapes), lossless WebP
  anim-100.gif             100 frames of 480x360: a fixed 256-colour background with three moving sprites; Pillow
                           stores each frame as the rectangle that changed (as real animated GIFs are)
  anim-100.png             the same 100 frames as an APNG (RGBA)
  photo-1000x1000.png      a 1000x1000 crop of the photo, RGBA (the resize-up and blur input)
  photo-2000x1500.jxl      the WebP photo's pixels, lossy JPEG XL (cjxl -d 1, effort 7)
  graphic-1000x750.jxl     the drawing, lossless JPEG XL (cjxl -d 0, effort 7)
  photo-2000x1500-lzw.tif  the photo resized (LANCZOS) to 2000x1500, RGB, LZW-compressed TIFF (the TIFF decode row)
  photo-2000x1500.bmp      the same pixels as a 24-bit bottom-up BMP (the large BMP decode row)
  photo-2040x1356.jpg      the photo cropped to 3:2 and resized (LANCZOS) to 2040x1356, JPEG q90 4:2:0 (the libvips
                           thumbnail-service row: fit 512 + JPEG q80)
Usage: make_cpu_inputs.py DATA_DIR
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageDraw

FRAMES = 100
ANIM_SIZE = (480, 360)


def palette():
    """256 colours: a 6x7x6 colour cube (252) plus four greys."""
    colours = [(r * 51, g * 42, b * 51) for r in range(6) for g in range(7) for b in range(6)]
    colours += [(32, 32, 32), (96, 96, 96), (160, 160, 160), (224, 224, 224)]
    return [c for rgb in colours for c in rgb]


def animation_frames():
    """The 100 palette-mode frames: a static background of bands, three sprites moving on their own paths."""
    w, h = ANIM_SIZE
    yy, xx = np.mgrid[0:h, 0:w]
    background = ((xx // 12 + yy // 9) % 252).astype(np.uint8)
    frames = []
    for i in range(FRAMES):
        frame = Image.fromarray(background, "P")
        frame.putpalette(palette())
        draw = ImageDraw.Draw(frame)
        for k, (speed, radius, colour) in enumerate([(3, 40, 252), (5, 28, 30), (2, 60, 200)]):
            cx = (i * speed * 4 + k * 150) % (w + 2 * radius) - radius
            cy = h // 2 + int((h // 3) * np.sin(i * speed / 20 + k))
            draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour)
        frames.append(frame)
    return frames


def main():
    data = sys.argv[1]
    photo = Image.open(os.path.join(data, "photo-4000x3000.jpg")).convert("RGB")

    out = os.path.join(data, "photo-2000x1500.webp")
    if not os.path.exists(out):
        small = np.asarray(photo.resize((2000, 1500), Image.LANCZOS), dtype=np.int16)
        noise = np.random.default_rng(2000).normal(0, 6, size=(1500, 2000, 1)).astype(np.int16)
        Image.fromarray(np.clip(small + noise, 0, 255).astype(np.uint8), "RGB").save(out, quality=80, method=4)

    out = os.path.join(data, "graphic-1000x750.webp")
    if not os.path.exists(out):
        graphic = Image.new("RGBA", (1000, 750), (250, 250, 245, 255))
        draw = ImageDraw.Draw(graphic)
        for i in range(0, 1000, 25):
            draw.rectangle((i, 0, i + 12, 750), fill=(i % 256, (i * 3) % 256, 120, 255))
        for i in range(40):
            x, y = (i * 97) % 900, (i * 61) % 650
            draw.ellipse((x, y, x + 90, y + 90), fill=((i * 40) % 256, 30, (i * 70) % 256, 160 + i % 96))
        graphic.save(out, lossless=True, method=4)

    gif, apng = os.path.join(data, "anim-100.gif"), os.path.join(data, "anim-100.png")
    if not os.path.exists(gif) or not os.path.exists(apng):
        frames = animation_frames()
        frames[0].save(gif, save_all=True, append_images=frames[1:], duration=40, loop=0)
        rgba = [f.convert("RGBA") for f in frames]
        rgba[0].save(apng, save_all=True, append_images=rgba[1:], duration=40, loop=0)

    out = os.path.join(data, "photo-1000x1000.png")
    if not os.path.exists(out):
        photo.crop((1500, 1000, 2500, 2000)).convert("RGBA").save(out)

    for name, distance in (("photo-2000x1500", "1"), ("graphic-1000x750", "0")):
        out = os.path.join(data, name + ".jxl")
        if not os.path.exists(out):
            with tempfile.TemporaryDirectory() as tmp:
                png = os.path.join(tmp, name + ".png")
                Image.open(os.path.join(data, name + ".webp")).save(png)
                subprocess.run(["cjxl", "--quiet", "-d", distance, "-e", "7", png, out], check=True)
    out = os.path.join(data, "photo-2000x1500-lzw.tif")
    if not os.path.exists(out):
        photo.resize((2000, 1500), Image.LANCZOS).save(out, compression="tiff_lzw")
    out = os.path.join(data, "photo-2000x1500.bmp")
    if not os.path.exists(out):
        photo.resize((2000, 1500), Image.LANCZOS).convert("RGB").save(out)
    out = os.path.join(data, "photo-2040x1356.jpg")
    if not os.path.exists(out):
        photo.crop((0, 170, 4000, 2830)).resize((2040, 1356), Image.LANCZOS).save(out, quality=90, subsampling=2)


if __name__ == "__main__":
    main()
