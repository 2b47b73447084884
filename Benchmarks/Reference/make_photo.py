#!/usr/bin/env python3
"""Makes the photo-like 4000x3000 q90 JPEGs the thumbnail workloads use, deterministically.

A real photo from the fixtures (Tests/Fixtures/jpeg/right-orientation.jpg, 480x640) is rotated to landscape,
upscaled with LANCZOS to 4000x3000, and given seeded fine-grained noise so that the DCT has photo-like detail
(an upscaled image alone compresses far better than a camera photo). Variant i shifts the seed and the crop.
Usage: make_photo.py FIXTURES OUT_DIR COUNT
"""
import os
import sys

import numpy as np
from PIL import Image


def make(fixtures, out, index):
    base = Image.open(os.path.join(fixtures, "jpeg/right-orientation.jpg")).convert("RGB").rotate(90, expand=True)
    w, h = base.size
    crop = index % 17
    base = base.crop((crop, crop, w - 17 + crop, h - 17 + crop))
    big = np.asarray(base.resize((4000, 3000), Image.LANCZOS), dtype=np.int16)
    rng = np.random.default_rng(1234 + index)
    noise = rng.normal(0, 6, size=(3000, 4000, 1)).astype(np.int16)
    pixels = np.clip(big + noise, 0, 255).astype(np.uint8)
    Image.fromarray(pixels, "RGB").save(out, quality=90, subsampling="4:2:0")


def main():
    fixtures, out_dir, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.makedirs(out_dir, exist_ok=True)
    for i in range(count):
        name = os.path.join(out_dir, "photo-4000x3000.jpg" if i == 0 else f"many/photo-{i:03d}.jpg")
        os.makedirs(os.path.dirname(name), exist_ok=True)
        if not os.path.exists(name):
            make(fixtures, name, i)


if __name__ == "__main__":
    main()
