"""Writes thumbor-max-size-reference.tsv: the output size thumbor 7.8 gives under MAX_WIDTH / MAX_HEIGHT for each
request path of PATHS on four sources (400x200, 200x400, 1000x500 and 333x111 pixels), for ServeMaxSizeTests.

Run with thumbor from PyPI installed (`pip install thumbor==7.8.0`):
    python3 make_reference.py > thumbor-max-size-reference.tsv
thumbor caps a requested width or height at its maximum, and shrinks a source past the maximums before anything else
(its engine's `normalize`, with its own rule for which side decides), translating a manual crop to the smaller
source. Each line: MAX_WIDTH, MAX_HEIGHT, the source size, the path, the output width and height.
"""
import io
import itertools
import os
import sys
import tempfile
import urllib.request

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import thumbor_server  # noqa: E402  (Tests/Fixtures/thumbor_server.py)

LIMITS = [(150, 0), (0, 100), (150, 100), (1000, 50), (120, 120)]
SOURCES = [(400, 200), (200, 400), (1000, 500), (333, 111)]
PATHS = ["", "300x0/", "0x300/", "90x60/", "fit-in/500x500/", "fit-in/80x80/", "10x20:110x120/",
         "10x20:110x120/50x0/", "orig x orig/".replace(" ", ""), "-300x200/"]


def main():
    folder = tempfile.mkdtemp()
    for width, height in SOURCES:
        Image.new("RGB", (width, height), (200, 30, 30)).save(os.path.join(folder, f"{width}x{height}.png"))
    print("# MAX_WIDTH\tMAX_HEIGHT\tsource\tpath\twidth\theight of thumbor 7.8's answer")
    for max_width, max_height in LIMITS:
        settings = f"ALLOW_UNSAFE_URL = True\nMAX_WIDTH = {max_width}\nMAX_HEIGHT = {max_height}\n"
        with thumbor_server.running(folder, settings) as port:
            for (width, height), path in itertools.product(SOURCES, PATHS):
                url = f"http://127.0.0.1:{port}/unsafe/{path}{width}x{height}.png"
                size = Image.open(io.BytesIO(urllib.request.urlopen(url).read())).size
                print(f"{max_width}\t{max_height}\t{width}x{height}\t{path}\t{size[0]}\t{size[1]}")


if __name__ == "__main__":
    main()
