"""Writes thumbor-negotiation-reference.tsv: the format thumbor 7.8 answers in, and whether it sends `Vary: Accept`,
for each of its AUTO_* settings, sources in several formats, Accept headers and `format()` / `autojpg()` filters,
for ServeNegotiationTests.

Run with thumbor from PyPI installed, with pillow-heif for its HEIF output (`pip install thumbor==7.8.0 pillow-heif`):
    python3 make_reference.py > thumbor-negotiation-reference.tsv
It starts thumbor (Tests/Fixtures/thumbor_server.py) with its file loader over a temporary folder holding the sources
below, once per configuration. Each line: the configuration's settings, the Accept header (`-`: none), the path
after `unsafe/`, then thumbor's status, the answer's Content-Type and its Vary header (`-`: none).
"""
import os
import sys
import tempfile
import urllib.error
import urllib.request

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import thumbor_server  # noqa: E402  (Tests/Fixtures/thumbor_server.py)

CONFIGURATIONS = [
    "", "AUTO_WEBP = True", "AUTO_AVIF = True", "AUTO_WEBP = True\nAUTO_AVIF = True", "AUTO_JPG = True",
    "AUTO_PNG = True", "AUTO_PNG_TO_JPG = True", "AUTO_HEIF = True",
]
ACCEPTS = ["-", "image/webp,*/*", "image/avif,image/webp,*/*", "image/png", "image/heif", "*/*"]
PATHS = [
    "opaque.png", "alpha.png", "photo.jpg", "still.gif", "anim.gif", "photo.tif", "filters:format(png)/photo.jpg",
    "filters:autojpg(true)/opaque.png", "filters:autojpg(false)/opaque.png",
]


def fetch(port, path, accept):
    headers = {} if accept == "-" else {"Accept": accept}
    request = urllib.request.Request(f"http://127.0.0.1:{port}/unsafe/{path}", headers=headers)
    try:
        response = urllib.request.urlopen(request)
    except urllib.error.HTTPError as error:
        return f"{error.code}\t-\t-"
    response.read()
    return f"{response.status}\t{response.headers.get('Content-Type', '-')}\t{response.headers.get('Vary', '-')}"


def main():
    folder = tempfile.mkdtemp()
    opaque = Image.new("RGB", (40, 20), (0, 128, 255))
    opaque.save(os.path.join(folder, "opaque.png"))
    opaque.save(os.path.join(folder, "photo.jpg"), quality=90)
    opaque.save(os.path.join(folder, "photo.tif"))
    alpha = Image.new("RGBA", (40, 20), (0, 128, 255, 128))
    alpha.save(os.path.join(folder, "alpha.png"))
    opaque.convert("P").save(os.path.join(folder, "still.gif"))
    frames = [Image.new("RGB", (40, 20), color) for color in ((255, 0, 0), (0, 0, 255))]
    frames[0].save(os.path.join(folder, "anim.gif"), save_all=True, append_images=frames[1:], duration=100, loop=0)
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as source, \
                open(os.path.join(os.path.dirname(os.path.abspath(__file__)), name), "wb") as copy:
            copy.write(source.read())
    print("# settings (\\n-separated)\tAccept\tpath\tstatus\tContent-Type\tVary of thumbor 7.8's answer")
    for settings in CONFIGURATIONS:
        with thumbor_server.running(folder, "ALLOW_UNSAFE_URL = True\n" + settings + "\n") as port:
            for accept in ACCEPTS:
                for path in PATHS:
                    key = settings.replace("\n", "\\n") or "-"
                    print(f"{key}\t{accept}\t{path}\t{fetch(port, path, accept)}")


if __name__ == "__main__":
    main()
