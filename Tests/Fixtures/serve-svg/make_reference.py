"""Writes thumbor-svg-reference.tsv: the format, size and mode of thumbor 7.8's answers for SVG sources (px.svg,
120x60 px; inches.svg, 1in x 0.5in; viewbox.svg, a 24x24 viewBox with a transparent background), for ServeSVGTests.

Run with thumbor and cairosvg from PyPI installed (`pip install thumbor==7.8.0 cairosvg`; thumbor renders SVG with
cairosvg at SVG_DPI = 150, straight to the requested width and height, and answers PNG):
    python3 make_reference.py > thumbor-svg-reference.tsv
Each line: AUTO_PNG_TO_JPG, the path, the answer's format, width, height and Pillow mode.
"""
import io
import os
import shutil
import sys
import tempfile
import urllib.request

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import thumbor_server  # noqa: E402  (Tests/Fixtures/thumbor_server.py)

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = ["px.svg", "inches.svg", "viewbox.svg"]
PATHS = ["", "60x0/", "300x0/", "0x90/", "200x200/", "fit-in/200x200/", "fit-in/50x50/"]


def main():
    folder = tempfile.mkdtemp()
    for name in SOURCES:
        shutil.copy(os.path.join(HERE, name), folder)
    print("# AUTO_PNG_TO_JPG\tpath\tformat\twidth\theight\tmode of thumbor 7.8's answer")
    for auto in (False, True):
        with thumbor_server.running(folder, f"ALLOW_UNSAFE_URL = True\nAUTO_PNG_TO_JPG = {auto}\n") as port:
            for name in SOURCES:
                for path in PATHS:
                    data = urllib.request.urlopen(f"http://127.0.0.1:{port}/unsafe/{path}{name}").read()
                    image = Image.open(io.BytesIO(data))
                    print(f"{auto}\t{path}{name}\t{image.format}\t{image.size[0]}\t{image.size[1]}\t{image.mode}")


if __name__ == "__main__":
    main()
