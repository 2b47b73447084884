#!/usr/bin/env python3
"""Makes the images the Service rows' nginx origin serves, deterministically: twenty photo-like 2040x1356 pictures,
each as a JPEG (quality 90, 4:2:0), a PNG (RGB, Pillow's default zlib level) and a lossy WebP (quality 90):
OUT_DIR/1.jpg ... 20.jpg, 1.png ... 20.png, 1.webp ... 20.webp.

Picture i is the fixture photo Tests/Fixtures/jpeg/right-orientation.jpg (480x640, turned to landscape) cropped by
a shifting margin, mirrored for even i, upscaled with LANCZOS to 2040x1356, with seeded Gaussian noise (sigma 6,
seed 2040 + i) so that the codecs see camera-like detail, as make_photo.py does for the 4000x3000 JPEGs.
Usage: make_service_inputs.py FIXTURES OUT_DIR
"""
import os
import sys

import numpy as np
from PIL import Image, ImageOps

COUNT = 20
SIZE = (2040, 1356)


def picture(fixtures, index):
    base = Image.open(os.path.join(fixtures, "jpeg/right-orientation.jpg")).convert("RGB").rotate(90, expand=True)
    w, h = base.size
    margin = 3 * (index % 11)
    base = base.crop((margin, margin // 2, w - 33 + margin, h - 17 + margin // 2))
    if index % 2 == 0:
        base = ImageOps.mirror(base)
    big = np.asarray(base.resize(SIZE, Image.LANCZOS), dtype=np.int16)
    rng = np.random.default_rng(2040 + index)
    noise = rng.normal(0, 6, size=(SIZE[1], SIZE[0], 1)).astype(np.int16)
    return Image.fromarray(np.clip(big + noise, 0, 255).astype(np.uint8), "RGB")


def main():
    fixtures, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    for index in range(1, COUNT + 1):
        names = {ext: os.path.join(out_dir, f"{index}.{ext}") for ext in ("jpg", "png", "webp")}
        if all(os.path.exists(name) for name in names.values()):
            continue
        image = picture(fixtures, index)
        image.save(names["jpg"], quality=90, subsampling="4:2:0")
        image.save(names["png"])
        image.save(names["webp"], quality=90)


if __name__ == "__main__":
    main()
