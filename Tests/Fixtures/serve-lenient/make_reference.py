"""Writes thumbor-lenient-reference.tsv: what thumbor 7.8 answers to filters it skips or clamps (an unknown name,
arguments its patterns do not match, values out of range), and to a bad signature, an unsafe URL it does not
allow and a source over its pixel limit, for ServeLenientFilterTests.

Run with thumbor from PyPI installed (`pip install thumbor==7.8.0`):
    python3 make_reference.py > thumbor-lenient-reference.tsv
It starts thumbor (Tests/Fixtures/thumbor_server.py) with its file loader over a temporary folder holding
stripes.png, the 400x200 image of WITestSupport's ServeTestImages.stripes() (columns 0..<100 red, 100..<300 green,
300..<400 blue, opaque), and pattern.png, the 24x16 RGBA pattern of ThumborReference.pattern() (serve-blur), once
per configuration, and asks for every path. Each line: the configuration (`unsafe`: stripes.png; `pattern`:
pattern.png; `differs`: pattern.png where WebImage knowingly answers otherwise, listed so the test notices when
that changes; `signed`, `pixels`: the other thumbor configurations), the path after the signature and before the
image, thumbor's status, then for an image its width, height, format, the max-age of its Cache-Control and the
SHA-256 of its pixels as straight RGBA8 (PNG answers only), else `-`.
"""
import base64
import hashlib
import hmac
import io
import os
import sys
import tempfile
import urllib.error
import urllib.request

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import thumbor_server  # noqa: E402  (Tests/Fixtures/thumbor_server.py)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "serve-blur"))
from make_reference import pattern  # noqa: E402  (serve-blur's 24x16 RGBA pattern)

# Filters thumbor skips (its pattern does not match, or the value makes it return), clamps, or keeps with a value
# out of WebImage's strict range; and lists it cuts at "):".
FILTERS = [
    "", "blur(500)", "blur(0)", "blur(3,-2)", "rotate(181)", "rotate(45)", "rotate(3690)", "rotate(-450)",
    "format(asdf)", "format(jpeg):format(asdf)", "proportion(10000)", "proportion(-1)", "proportion(abc)",
    "focal()", "focal(abc)", "sepia()", "unknown_filter(1,2)", "format(jpeg):quality(101)", "brightness(5000)",
    "rgb(5000,-5000,0)", "noise(-1)", "saturation(nan)", "sharpen(2,1,yes)", "no_upscale(1)", "grayscale(1)",
    "max_age(-1)", "max_age(60):max_age(x)", "max_bytes(0)", "quality(80)x:grayscale()", "blur(2):sepia():rotate(90)",
    "watermark(a.png,0,0)", "strip_exif(1):rotate(270)", "quality(-5)", "format(jpeg):quality(-5)",
    "rotate(99999999999999999990)", "rotate(+90)", "max_bytes(99999999999)",
]

# Values out of WebImage's strict ranges that thumbor computes with, on an image with every kind of level.
PATTERN = [
    "contrast(1500)", "contrast(5000)", "contrast(-5000)", "contrast(-150)", "saturation(500)", "saturation(-300.5)",
    "colorize(2000,0,50,ff8000)", "noise(5000,3)", "noise(-1)", "brightness(5000)", "rgb(5000,-5000,7)",
    "colorize(-1,0,0,ff8000)", "saturation(2000000)", "blur(2000)", "blur(3,-4000)", "saturation(1e3)",
    "saturation(+2)", "blur(2,0x1p3)", "blur(2,-9999999)", "blur(2,10000000)", "blur(2,1e7)", "blur(99999999)",
    "round_corner(8|4,255,0,0)",
]

# Where WebImage knowingly answers otherwise (docs/SERVE.md, "Strict"): thumbor fails with a 500, or computes
# with arguments we skip the filter for.
DIFFERS = [
    "sharpen(500,1,true)", "curve([(255,0),(0,255)],[],[],[])", "fill(zzz)",
    "background_color(zzz)", "convolution(1;2;1;2,2)", "round_corner(8,300,0,0)",
]

KEY = "k"


def sign(path):
    digest = hmac.new(KEY.encode(), path.encode(), hashlib.sha1).digest()
    return base64.urlsafe_b64encode(digest).decode()


def fetch(port, path):
    try:
        response = urllib.request.urlopen(f"http://127.0.0.1:{port}/{path}")
    except urllib.error.HTTPError as error:
        return f"{error.code}\t-\t-\t-\t-\t-"
    data = response.read()
    image = Image.open(io.BytesIO(data))
    control = response.headers.get("Cache-Control", "")
    max_age = control.split("max-age=")[1].split(",")[0] if "max-age=" in control else "-"
    digest = hashlib.sha256(image.convert("RGBA").tobytes()).hexdigest() if image.format == "PNG" else "-"
    return f"{response.status}\t{image.size[0]}\t{image.size[1]}\t{image.format.lower()}\t{max_age}\t{digest}"


def main():
    folder = tempfile.mkdtemp()
    stripes = Image.new("RGBA", (400, 200), (0, 255, 0, 255))
    stripes.paste((255, 0, 0, 255), (0, 0, 100, 200))
    stripes.paste((0, 0, 255, 255), (300, 0, 400, 200))
    stripes.save(os.path.join(folder, "stripes.png"))
    Image.frombytes("RGBA", (24, 16), pattern()).save(os.path.join(folder, "pattern.png"))
    print("# configuration\tpath\tstatus\twidth\theight\tformat\tmax-age\tRGBA8 SHA-256 of thumbor 7.8's answer")
    with thumbor_server.running(folder) as port:
        for filters in FILTERS:
            path = f"filters:{filters}/" if filters else ""
            print(f"unsafe\t{path}\t{fetch(port, f'unsafe/{path}stripes.png')}")
        for kind, filters_list in (("pattern", PATTERN), ("differs", DIFFERS)):
            for filters in filters_list:
                path = f"filters:{filters}/"
                print(f"{kind}\t{path}\t{fetch(port, f'unsafe/{path}pattern.png')}")
    with thumbor_server.running(folder, f"SECURITY_KEY = '{KEY}'\nALLOW_UNSAFE_URL = False\n") as port:
        print(f"signed\tsigned\t{fetch(port, sign('stripes.png') + '/stripes.png')}")
        print(f"signed\tbad-signature\t{fetch(port, sign('other.png') + '/stripes.png')}")
        print(f"signed\tunsafe\t{fetch(port, 'unsafe/stripes.png')}")
    # Pillow refuses an image over twice MAX_PIXELS (below that it only warns): 80,000 > 2 x 30,000.
    with thumbor_server.running(folder, "ALLOW_UNSAFE_URL = True\nMAX_PIXELS = 30000\n") as port:
        print(f"pixels\tover-the-limit\t{fetch(port, 'unsafe/stripes.png')}")


if __name__ == "__main__":
    main()
