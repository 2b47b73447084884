"""Writes thumbor-meta-reference.tsv: thumbor 7.8's `meta/` answers (the JSON of the source and the operations) for
each request path of PATHS on two sources (400x200 and 200x400 pixels), for ServeMetaTests.

Run with thumbor from PyPI installed (`pip install thumbor==7.8.0`):
    python3 make_reference.py > thumbor-meta-reference.tsv
It starts thumbor on a free port with its file loader over a temporary folder holding the two PNGs (the 400x200 one
with a white border of 20 pixels, for trim), asks for every path and stops it. Each line: the source, the path
after `meta/`, thumbor's JSON (or its HTTP status when it answers none).
"""
import os
import sys
import tempfile
import urllib.error
import urllib.request

from PIL import Image, ImageDraw

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import thumbor_server  # noqa: E402  (Tests/Fixtures/thumbor_server.py)

SOURCES = [(400, 200), (200, 400)]
PATHS = ["", "300x200/", "fit-in/100x100/", "-300x-100/", "10x20:110x120/50x0/", "100x100/", "100x100/left/top/",
         "100x100/right/bottom/", "fit-in/800x800/", "fit-in/800x800/filters:upscale()/", "0x50/", "orig x 50/",
         "300x200/filters:rotate(90)/", "fit-in/100x100/filters:fill(red)/", "trim/", "trim/100x100/",
         "10x20:110x120/", "full-fit-in/50x50/", "adaptive-fit-in/50x100/", "50x50/filters:stretch()/",
         "filters:proportion(0.5)/", "200x0/filters:no_upscale()/", "800x0/filters:no_upscale()/"]


def main():
    folder = tempfile.mkdtemp()
    for width, height in SOURCES:
        image = Image.new("RGB", (width, height), (255, 255, 255))
        ImageDraw.Draw(image).rectangle((20, 20, width - 21, height - 21), fill=(200, 30, 30))
        image.save(os.path.join(folder, f"{width}x{height}.png"))
    print("# source\tpath after meta/\tthumbor 7.8's JSON")
    with thumbor_server.running(folder) as port:
        for width, height in SOURCES:
            for path in PATHS:
                path = path.replace(" ", "")
                url = f"http://127.0.0.1:{port}/unsafe/meta/{path}{width}x{height}.png"
                try:
                    body = urllib.request.urlopen(url).read().decode()
                except urllib.error.HTTPError as error:
                    body = str(error.code)
                print(f"{width}x{height}\t{path}\t{body}")


if __name__ == "__main__":
    main()
