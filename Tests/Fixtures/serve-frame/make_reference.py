"""Writes the references of ServeFrameTests: source.png (20x12 RGBA, some pixels half transparent), four frame
images (frame.png 12x9, small.png 5x7 and large.png 30x20 are nine-patches: opaque black markers on a 1-pixel
border, the top row and left column marking the stretchable part, the bottom row and right column the content
area; plain.png 16x16 has no marker), garbage.png (not an image), and thumbor 7.8's answers to the requests of
CASES from a real thumbor server (file loader over this folder's images), each saved as answer-NAME.png, and
thumbor-answers.tsv: one line per case, its name, thumbor's path and thumbor's status.

Run with thumbor from PyPI installed (`pip install thumbor==7.8.0`):
    python3 make_reference.py
"""
import os
import shutil
import sys
import tempfile
import urllib.error
import urllib.request

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import thumbor_server  # noqa: E402  (Tests/Fixtures/thumbor_server.py)

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = [
    ("frame", "filters:frame(frame.png):format(png)/source.png"),
    ("small", "filters:frame(small.png):format(png)/source.png"),
    ("large", "filters:frame(large.png):format(png)/source.png"),
    ("plain", "filters:frame(plain.png):format(png)/source.png"),
    ("quoted", "filters:frame('frame.png'):format(png)/source.png"),
    ("twice", "filters:frame(small.png):frame(frame.png):format(png)/source.png"),
    ("crop", "2x1:16x11/filters:frame(small.png):format(png)/source.png"),
    ("resize", "10x6/filters:frame(frame.png):format(png)/source.png"),
    ("before", "filters:brightness(20):frame(frame.png):format(png)/source.png"),
    ("after", "filters:frame(frame.png):grayscale():format(png)/source.png"),
    ("empty", "filters:frame():format(png)/source.png"),
    ("missing", "filters:frame(missing.png):format(png)/source.png"),
    ("garbage", "filters:frame(garbage.png):format(png)/source.png"),
]


def source():
    image = Image.new("RGBA", (20, 12))
    for y in range(12):
        for x in range(20):
            image.putpixel((x, y), ((x * 13 + y * 7) % 256, (x * 5 + y * 31) % 256, (x * y * 3) % 256,
                                    255 if (x + y) % 5 else 128))
    return image


def nine_patch(width, height, border, inside):
    """Opaque black markers: the middle two columns / rows of the top row and left column (stretchable), columns /
    rows 3 to width-4 / height-4 of the bottom row and right column (content); a two-pixel ring of `border`
    around `inside`."""
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    for y in range(1, height - 1):
        for x in range(1, width - 1):
            ring = x in (1, 2, width - 3, width - 2) or y in (1, 2, height - 3, height - 2)
            image.putpixel((x, y), border if ring else inside)
    for x in range(width // 2 - 1, width // 2 + 1):
        image.putpixel((x, 0), (0, 0, 0, 255))
    for y in range(height // 2 - 1, height // 2 + 1):
        image.putpixel((0, y), (0, 0, 0, 255))
    for x in range(3, width - 3):
        image.putpixel((x, height - 1), (0, 0, 0, 255))
    for y in range(3, height - 3):
        image.putpixel((width - 1, y), (0, 0, 0, 255))
    return image


def main():
    source().save(os.path.join(HERE, "source.png"))
    nine_patch(12, 9, (255, 200, 0, 255), (40, 40, 40, 128)).save(os.path.join(HERE, "frame.png"))
    nine_patch(5, 7, (255, 0, 255, 255), (0, 0, 0, 0)).save(os.path.join(HERE, "small.png"))
    nine_patch(30, 20, (200, 30, 60, 255), (0, 0, 0, 0)).save(os.path.join(HERE, "large.png"))
    Image.new("RGBA", (16, 16), (10, 20, 30, 128)).save(os.path.join(HERE, "plain.png"))
    with open(os.path.join(HERE, "garbage.png"), "wb") as file:
        file.write(b"this is not an image\n")
    folder = tempfile.mkdtemp()
    lines = ["# name\tthumbor path (after /unsafe/)\tthumbor 7.8's status; answer-NAME.png is its answer to a 200"]
    try:
        for name in ["source.png", "frame.png", "small.png", "large.png", "plain.png", "garbage.png"]:
            shutil.copy(os.path.join(HERE, name), folder)
        with thumbor_server.running(folder) as port:
            for name, path in CASES:
                try:
                    answer = urllib.request.urlopen(f"http://127.0.0.1:{port}/unsafe/{path}")
                    status = answer.status
                    with open(os.path.join(HERE, f"answer-{name}.png"), "wb") as file:
                        file.write(answer.read())
                except urllib.error.HTTPError as error:
                    status = error.code
                lines.append(f"{name}\t{path}\t{status}")
    finally:
        shutil.rmtree(folder)
    with open(os.path.join(HERE, "thumbor-answers.tsv"), "w") as file:
        file.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
