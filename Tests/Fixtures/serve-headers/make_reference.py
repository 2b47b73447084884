"""Writes thumbor-headers-reference.tsv: the caching and CORS headers thumbor 7.8 answers with (Cache-Control, Expires
as seconds after Date, Access-Control-Allow-Origin) and whether its JPEG answers are progressive, for
ServeHeadersTests.

Run with thumbor from PyPI installed (`pip install thumbor==7.8.0`):
    python3 make_reference.py > thumbor-headers-reference.tsv
It starts thumbor (Tests/Fixtures/thumbor_server.py) with its file loader over a temporary folder holding a 40x20 JPEG,
once per configuration. Each line: the configuration (`-`: thumbor's defaults), the path after `unsafe/`, then
thumbor's status, Cache-Control, Expires minus Date in seconds, Access-Control-Allow-Origin (`-`: none) and
`progressive` or `baseline` (the JPEG's start-of-frame marker).
"""
import email.utils
import io
import os
import sys
import tempfile
import urllib.request

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import thumbor_server  # noqa: E402  (Tests/Fixtures/thumbor_server.py)

CONFIGURATIONS = ["", "MAX_AGE = 3600", "ACCESS_CONTROL_ALLOW_ORIGIN_HEADER = '*'", "PROGRESSIVE_JPEG = False"]
PATHS = ["photo.jpg", "filters:max_age(60)/photo.jpg", "filters:max_age(0)/photo.jpg"]


def frame_kind(data):
    i = 2
    while i + 4 <= len(data):
        marker = data[i + 1]
        if marker in (0xC0, 0xC1):
            return "baseline"
        if marker == 0xC2:
            return "progressive"
        i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
    return "-"


def fetch(port, path):
    response = urllib.request.urlopen(f"http://127.0.0.1:{port}/unsafe/{path}")
    data = response.read()
    h = response.headers
    expires = "-"
    if h.get("Expires") and h.get("Date"):
        delta = email.utils.parsedate_to_datetime(h["Expires"]) - email.utils.parsedate_to_datetime(h["Date"])
        expires = str(round(delta.total_seconds()))
    return "\t".join([str(response.status), h.get("Cache-Control", "-"), expires,
                      h.get("Access-Control-Allow-Origin", "-"), frame_kind(data)])


def main():
    folder = tempfile.mkdtemp()
    Image.new("RGB", (40, 20), (0, 128, 255)).save(os.path.join(folder, "photo.jpg"), quality=90)
    print("# settings\tpath\tstatus\tCache-Control\tExpires - Date (s)\tAccess-Control-Allow-Origin\tJPEG frame")
    for settings in CONFIGURATIONS:
        with thumbor_server.running(folder, "ALLOW_UNSAFE_URL = True\n" + settings + "\n") as port:
            for path in PATHS:
                print(f"{settings or '-'}\t{path}\t{fetch(port, path)}")


if __name__ == "__main__":
    main()
