"""Writes thumbor-extract-focal-reference.tsv: what thumbor 7.8 answers with `extract_focal()` on a nested thumbor URL
whose crop should become the focal region, on a 400x200 source whose pixel at (x, y) is (x % 256, y, x // 256), for
ServeExtractFocalTests.

Run with thumbor from PyPI installed (`pip install thumbor==7.8.0`):
    python3 make_reference.py > thumbor-extract-focal-reference.tsv
The source is src.png and, again, at the nested URL's own path under the file loader's root: thumbor 7.8 loads the
nested path as written (without that copy it answers 404), and its window is the alignment's, not the focal one's
(which would be 200, not 100, from the left). Each line: the path before the image, the status, and, for a 200, the
answer's size and its window's left and top (read from its top-left pixel; no path resizes).
"""
import io
import os
import sys
import tempfile
import urllib.error
import urllib.request

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import thumbor_server  # noqa: E402  (Tests/Fixtures/thumbor_server.py)

PATHS = [
    "200x200/filters:extract_focal()/thumbor.example/unsafe/300x50:400x150/",
    "200x200/thumbor.example/unsafe/300x50:400x150/",
    "200x200/filters:extract_focal()/thumbor.example/unsafe/0x0:50x50/",
]


def main():
    folder = tempfile.mkdtemp()
    source = Image.new("RGB", (400, 200))
    source.putdata([(x % 256, y, x // 256) for y in range(200) for x in range(400)])
    source.save(os.path.join(folder, "src.png"))
    nested = os.path.join(folder, "thumbor.example", "unsafe", "300x50:400x150")
    os.makedirs(nested)
    source.save(os.path.join(nested, "src.png"))
    print("# path before src.png\tstatus\twidth\theight\tleft\ttop of thumbor 7.8's answer")
    with thumbor_server.running(folder) as port:
        for path in PATHS:
            try:
                data = urllib.request.urlopen(f"http://127.0.0.1:{port}/unsafe/{path}src.png").read()
            except urllib.error.HTTPError as error:
                print(f"{path}\t{error.code}\t-\t-\t-\t-")
                continue
            image = Image.open(io.BytesIO(data)).convert("RGB")
            red, green, blue = image.getpixel((0, 0))
            print(f"{path}\t200\t{image.size[0]}\t{image.size[1]}\t{blue * 256 + red}\t{green}")


if __name__ == "__main__":
    main()
