"""Writes the references of ServeFillTests: source.png (40x20, opaque, a pattern of every channel) and thumbor
7.8's answers to `fit-in/60x60/filters:fill(auto)/` (fill-auto.png) and `fit-in/60x60/filters:fill(blur)/`
(fill-blur.png) on it, from a real thumbor server.

Run with thumbor from PyPI installed (`pip install thumbor==7.8.0`):
    python3 make_reference.py
"""
import os
import shutil
import sys
import tempfile
import urllib.request

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import thumbor_server  # noqa: E402  (Tests/Fixtures/thumbor_server.py)

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    source = Image.new("RGB", (40, 20))
    for y in range(20):
        for x in range(40):
            source.putpixel((x, y), ((x * 37 + y * 11) % 256, (x * 5 + y * 29) % 256, (x * y) % 256))
    source.save(os.path.join(HERE, "source.png"))
    folder = tempfile.mkdtemp()
    try:
        shutil.copy(os.path.join(HERE, "source.png"), folder)
        with thumbor_server.running(folder) as port:
            for name, path in [("fill-auto.png", "fit-in/60x60/filters:fill(auto)/"),
                               ("fill-blur.png", "fit-in/60x60/filters:fill(blur)/")]:
                data = urllib.request.urlopen(f"http://127.0.0.1:{port}/unsafe/{path}source.png").read()
                with open(os.path.join(HERE, name), "wb") as file:
                    file.write(data)
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
