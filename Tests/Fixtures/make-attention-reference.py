#!/usr/bin/env python3
"""Writes attention-reference.tsv: the crop window libvips picks with smartcrop(interesting=attention) for each
photo in attention/ and each crop size, to compare AttentionCropTransformer's window with
(Tests/WebImageTests/AttentionCropPhotoTests.swift asserts the overlap).

Both sides first scale the photo to cover the crop size with its aspect ratio kept, to the size
ResizeTransformer's aspectFill gives (each side rounded to the nearest pixel), then place the window in that scaled
image. libvips (pyvips 3.2 with pyvips-binary 8.18.7: `pip install pyvips pyvips-binary`) scales with
vips_resize to exactly that size and runs vips_smartcrop; its attention_x/attention_y outputs give the point it
centred on, and the window's corner is that point minus half the crop, clipped to the image, as vips_smartcrop does
(checked here against the pixels smartcrop returns).

Rows: file, crop WxH, scaled WxH, x, y (the window's top-left corner in the scaled image).
Run from anywhere: python3 Tests/Fixtures/make-attention-reference.py
"""
import os

import pyvips

HERE = os.path.dirname(os.path.abspath(__file__))
PHOTOS = ["anemone.jpg", "fire.webp", "fjord.webp", "kayak.webp"]
CROPS = [(128, 128), (256, 64), (96, 160)]


def cover(width, height, crop_width, crop_height):
    """ResizeTransformer.placement for .aspectFill: the source scaled to cover the crop, sides rounded."""
    ratio = max(crop_width / width, crop_height / height)
    scaled_width = max(1, int(round_half_away(width * ratio)))
    scaled_height = max(1, int(round_half_away(height * ratio)))
    return max(scaled_width, crop_width), max(scaled_height, crop_height)


def round_half_away(value):
    """Swift's Double.rounded(): halves away from zero."""
    return int(value + 0.5) if value >= 0 else -int(-value + 0.5)


def main():
    rows = ["# file\tcrop\tscaled\tx\ty (libvips 8.18 smartcrop interesting=attention; make-attention-reference.py)"]
    for name in PHOTOS:
        image = pyvips.Image.new_from_file(os.path.join(HERE, "attention", name), access="sequential")
        image = image.copy_memory()
        for crop_width, crop_height in CROPS:
            scaled_width, scaled_height = cover(image.width, image.height, crop_width, crop_height)
            scaled = image.resize(scaled_width / image.width, vscale=scaled_height / image.height)
            # vips_resize rounds its output size: nudge the scale until it is the size asked for.
            if (scaled.width, scaled.height) != (scaled_width, scaled_height):
                scaled = scaled.embed(0, 0, scaled_width, scaled_height, extend="copy") \
                    if scaled.width <= scaled_width and scaled.height <= scaled_height \
                    else scaled.crop(0, 0, scaled_width, scaled_height)
            scaled = scaled.copy_memory()
            crop, info = scaled.smartcrop(crop_width, crop_height, interesting="attention",
                                          attention_x=True, attention_y=True)
            x = min(max(0, info["attention_x"] - crop_width // 2), scaled_width - crop_width)
            y = min(max(0, info["attention_y"] - crop_height // 2), scaled_height - crop_height)
            expected = scaled.crop(x, y, crop_width, crop_height)
            assert (crop - expected).abs().max() == 0, f"{name} {crop_width}x{crop_height}: window not at ({x}, {y})"
            rows.append(f"attention/{name}\t{crop_width}x{crop_height}\t{scaled_width}x{scaled_height}\t{x}\t{y}")
    with open(os.path.join(HERE, "attention-reference.tsv"), "w") as output:
        output.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
