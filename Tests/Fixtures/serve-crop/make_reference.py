"""Writes thumbor-crop-reference.tsv: what thumbor 7.8 answers to `trim` and `focal()` URLs on the three images
below, for ServeCropTests (the images are rebuilt there from the same rules).

Run with thumbor from PyPI installed (`pip install thumbor==7.8.0`):
    python3 make_reference.py > thumbor-crop-reference.tsv
It starts thumbor on a free port with its file loader over a temporary folder, asks for each path and stops it.
Each line: the image, the path, the output width and height, and the SHA-1 of the output's RGBA8 bytes (PNG
output, so lossless; compared where nothing was resized).
"""
import hashlib
import io
import os
import sys
import tempfile
import urllib.request

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import thumbor_server  # noqa: E402  (Tests/Fixtures/thumbor_server.py)


def framed():
    """300x200 white; a near-white band (250) on rows 10-12; a pattern in x 40-259, y 30-169; a black dot at (5, 190)."""
    image = Image.new("RGBA", (300, 200), (255, 255, 255, 255))
    for y in range(200):
        for x in range(300):
            if 10 <= y <= 12:
                image.putpixel((x, y), (250, 250, 250, 255))
            if 40 <= x <= 259 and 30 <= y <= 169:
                image.putpixel((x, y), ((x * 7) % 256, (y * 5) % 256, 128, 255))
    image.putpixel((5, 190), (0, 0, 0, 255))
    return image


def cornered():
    """200x100 green, a red top-left pixel, a pattern in x 50-149, y 20-79 with a half-transparent column at x 60."""
    image = Image.new("RGBA", (200, 100), (10, 200, 10, 255))
    image.putpixel((0, 0), (255, 0, 0, 255))
    for y in range(20, 80):
        for x in range(50, 150):
            image.putpixel((x, y), ((x * 3) % 256, 40, (y * 9) % 256, 128 if x == 60 else 255))
    return image


def gradient():
    """400x200: red and blue follow x, green follows y, so every crop position shows in the pixels."""
    image = Image.new("RGBA", (400, 200))
    for y in range(200):
        for x in range(400):
            image.putpixel((x, y), (x % 256, y, (x * 3) % 256, 255))
    return image


CASES = [
    ("framed", "trim/"),
    ("framed", "trim:top-left:9/"),
    ("framed", "trim:top-left:8/"),
    ("framed", "trim:bottom-right/"),
    ("framed", "trim:9/20x20:100x100/"),
    ("framed", "trim:9/100x100/"),
    ("framed", "trim:9/fit-in/100x100/"),
    ("cornered", "trim/"),
    ("cornered", "trim:bottom-right/"),
    ("cornered", "trim:bottom-right:200/"),
    ("cornered", "trim:bottom-right/50x0/"),
    ("gradient", "200x200/filters:focal(0x0:10x10)/"),
    ("gradient", "200x200/filters:focal(300x50:380x150)/"),
    ("gradient", "200x200/filters:focal(150x0:250x200)/"),
    ("gradient", "200x200/filters:focal(0x0:100x100):focal(300x100:400x200)/"),
    ("gradient", "200x200/filters:focal(0x0:100x100):focal(300x0:320x10)/"),
    ("gradient", "200x200/left/filters:focal(300x50:380x150)/"),
    ("gradient", "50x0:350x200/200x200/filters:focal(300x50:340x150)/"),
    ("gradient", "0x0:200x200/100x200/filters:focal(300x50:340x150)/"),
    ("gradient", "400x100/filters:focal(0x150:10x190)/"),
    ("gradient", "fit-in/200x200/filters:focal(300x50:380x150)/"),
]


def main():
    folder = tempfile.mkdtemp()
    framed().save(os.path.join(folder, "framed.png"))
    cornered().save(os.path.join(folder, "cornered.png"))
    gradient().save(os.path.join(folder, "gradient.png"))
    with thumbor_server.running(folder) as port:
        print("# image\tpath\twidth\theight\tSHA-1 of the RGBA8 of thumbor 7.8's PNG answer")
        for name, path in CASES:
            data = urllib.request.urlopen(f"http://127.0.0.1:{port}/unsafe/{path}{name}.png").read()
            out = Image.open(io.BytesIO(data)).convert("RGBA")
            digest = hashlib.sha1(out.tobytes()).hexdigest()
            print(f"{name}\t{path}\t{out.size[0]}\t{out.size[1]}\t{digest}")


if __name__ == "__main__":
    main()
