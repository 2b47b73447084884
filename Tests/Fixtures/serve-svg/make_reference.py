"""Writes thumbor-svg-reference.tsv: the format, size and mode of thumbor 7.8's answers for SVG sources (px.svg,
120x60 px; inches.svg, 1in x 0.5in; viewbox.svg, a 24x24 viewBox with a transparent background), for
ServeNegotiationTests; and thumbor-svg-pixels.tsv with thumbor's answers themselves in answers/ (RGBA PNG), for
ServeSVGTests: requests of other aspects than the documents', fit-in, full-fit-in, adaptive-fit-in, flips, a side of
0, smart, a manual crop, trim, alignment, filters after, and MAX_WIDTH.

Run with thumbor and cairosvg from PyPI installed (`pip install thumbor==7.8.0 cairosvg`; thumbor renders SVG with
cairosvg at SVG_DPI = 150, straight to the requested width and height, and answers PNG):
    python3 make_reference.py > thumbor-svg-reference.tsv
Each line: AUTO_PNG_TO_JPG, the path, the answer's format, width, height and Pillow mode. thumbor-svg-pixels.tsv:
the settings, the path, the format, width, height and mode of the answer, and its file under answers/.
"""
import io
import json
import os
import re
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
PIXEL_PATHS = [
    "200x200/px.svg", "100x200/px.svg", "fit-in/200x200/px.svg", "fit-in/50x50/px.svg", "-100x200/px.svg",
    "200x-200/px.svg", "full-fit-in/100x200/px.svg", "adaptive-fit-in/100x200/px.svg", "200x200/smart/px.svg",
    "10x10:60x60/200x200/px.svg", "300x0/px.svg", "0x90/px.svg", "fit-in/0x200/px.svg", "200x200/left/top/px.svg",
    "trim/200x200/px.svg", "200x200/filters:grayscale()/px.svg", "200x200/filters:fill(blue)/px.svg",
    "fit-in/200x200/filters:background_color(blue)/px.svg", "200x200/inches.svg", "fit-in/50x50/inches.svg",
    "-100x-200/inches.svg", "200x100/viewbox.svg", "fit-in/200x100/viewbox.svg", "60x0/viewbox.svg",
]
MAX_WIDTH_PATHS = ["200x200/px.svg", "fit-in/200x0/px.svg"]
# An SVG watermark is drawn into the request's box too (the filter's engine loads it as any source); white.png is
# a 300x300 opaque white PNG made here.
WATERMARK_PATHS = ["300x150/filters:watermark(viewbox.svg,0,0,0)/white.png",
                   "300x150/filters:watermark(px.svg,10,10,50)/white.png"]
META_PATHS = ["meta/200x200/px.svg", "meta/fit-in/50x50/inches.svg", "meta/300x0/px.svg", "meta/px.svg"]


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


def file_name(settings, path):
    """The answer's file under answers/: the path with a flip's minus as "m", other punctuation as underscores."""
    name = "".join(c if c.isalnum() or c in "-." else "_" for c in re.sub(r"-(?=\d)", "m", path))
    return ("maxwidth100_" if settings else "") + name.replace(".svg", "").replace(".png", "") + ".png"


def pixels():
    """thumbor-svg-pixels.tsv and answers/: thumbor's answers, as RGBA PNG (the pixels, not thumbor's bytes)."""
    folder = tempfile.mkdtemp()
    for name in SOURCES:
        shutil.copy(os.path.join(HERE, name), folder)
    Image.new("RGB", (300, 300), (255, 255, 255)).save(os.path.join(folder, "white.png"))
    os.makedirs(os.path.join(HERE, "answers"), exist_ok=True)
    lines = ["# settings\tpath\tformat\twidth\theight\tmode of thumbor 7.8's answer\tits pixels under answers/ "
             "(meta/: JSON, the source's width and height)"]
    for settings, paths in (("", PIXEL_PATHS + WATERMARK_PATHS), ("MAX_WIDTH = 100", MAX_WIDTH_PATHS)):
        with thumbor_server.running(folder, f"ALLOW_UNSAFE_URL = True\n{settings}\n") as port:
            for path in paths:
                data = urllib.request.urlopen(f"http://127.0.0.1:{port}/unsafe/{path}").read()
                image = Image.open(io.BytesIO(data))
                name = file_name(settings, path)
                image.convert("RGBA").save(os.path.join(HERE, "answers", name), optimize=True)
                lines.append(f"{settings or '-'}\t{path}\t{image.format}\t{image.size[0]}\t{image.size[1]}\t"
                             f"{image.mode}\t{name}")
            for path in META_PATHS if not settings else []:
                source = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/unsafe/{path}").read())
                source = source["thumbor"]["source"]
                lines.append(f"-\t{path}\tJSON\t{source['width']}\t{source['height']}\t-\t-")
    with open(os.path.join(HERE, "thumbor-svg-pixels.tsv"), "w") as table:
        table.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
    pixels()
