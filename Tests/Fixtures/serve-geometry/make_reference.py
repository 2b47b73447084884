"""Writes thumbor-geometry-reference.tsv: the output size thumbor 7.8 gives for each request path of CASES on four
sources (400x200, 200x400, 1000x500 and 333x111 pixels), for ServeGeometryTests.

Run with thumbor from PyPI installed (`pip install thumbor==7.8.0`):
    python3 make_reference.py > thumbor-geometry-reference.tsv
It starts thumbor on a free port with its file loader over a temporary folder holding the four PNGs, asks for
every path, and stops it. Each line: the source size, the path (options and filters before the image), the output
width and height, or the HTTP status when thumbor answers none.
"""
import io
import itertools
import os
import sys
import tempfile
import urllib.error
import urllib.request

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import thumbor_server  # noqa: E402  (Tests/Fixtures/thumbor_server.py)

SOURCES = [(400, 200), (200, 400), (1000, 500), (333, 111)]
MODES = ["", "fit-in/", "full-fit-in/", "adaptive-fit-in/", "adaptive-full-fit-in/"]
SIZES = ["100x100/", "800x800/", "0x150/", "150x0/", "300x50/", "-120x90/"]
FILTERS = ["", "filters:upscale()/", "filters:no_upscale()/", "filters:proportion(0.5)/", "filters:fill(red)/",
           "filters:upscale():fill(red)/", "filters:fill(red):upscale()/", "filters:stretch()/",
           "filters:upscale():proportion(0.3)/"]


def main():
    folder = tempfile.mkdtemp()
    for width, height in SOURCES:
        Image.new("RGB", (width, height), (200, 30, 30)).save(os.path.join(folder, f"{width}x{height}.png"))
    with thumbor_server.running(folder) as port:
        print("# source\tpath\twidth\theight (or the HTTP status and -) of thumbor 7.8's answer")
        for (width, height), mode, size, filters in itertools.product(SOURCES, MODES, SIZES, FILTERS):
            path = f"{mode}{size}{filters}"
            url = f"http://127.0.0.1:{port}/unsafe/{path}{width}x{height}.png"
            try:
                data = urllib.request.urlopen(url).read()
                out = Image.open(io.BytesIO(data)).size
                print(f"{width}x{height}\t{path}\t{out[0]}\t{out[1]}")
            except urllib.error.HTTPError as error:
                print(f"{width}x{height}\t{path}\t{error.code}\t-")


if __name__ == "__main__":
    main()
