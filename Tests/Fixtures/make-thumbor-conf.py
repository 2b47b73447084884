#!/usr/bin/env python3
"""Writes thumbor-config/thumbor.conf: the configuration file thumbor's documentation tells its users to start
from (`thumbor-config > thumbor.conf`: every setting commented out with its default and its description), with
the settings below uncommented and set, as a user would edit it. `wi serve --thumbor-config` reads it in
wiTests (ThumborConfigCommandTests): every setting wi serve implements is among them, one that it ignores and
one whose absence changes answers.

The file is made by thumbor 7.8's own `thumbor.config.generate_config` with HOME set to /srv/thumbor (thumbor's
default FILE_LOADER_ROOT_PATH is HOME, written into the file), then loaded back with thumbor's `Config.load` to
check that thumbor reads each edited setting as the value given here.

Needs thumbor from PyPI (`pip install thumbor==7.8.0`) in the interpreter that runs the script:
    /tmp/thumbor-venv/bin/python Tests/Fixtures/make-thumbor-conf.py
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "thumbor-config", "thumbor.conf")

# (setting, the text of its value in the file, the value thumbor must read)
EDITS = [
    ("SECURITY_KEY", "'wi-thumbor-key'", "wi-thumbor-key"),
    ("ALLOW_UNSAFE_URL", "False", False),
    ("AUTO_WEBP", "True", True),
    ("AUTO_AVIF", "True", True),
    ("MAX_AGE", "24 * 60 * 60", 86400),
    ("MAX_PIXELS", "20e6", 20e6),
    ("QUALITY", "90", 90),
    ("WEBP_QUALITY", "85", 85),
    ("PRESERVE_EXIF_INFO", "True", True),
    ("PRESERVE_EXIF_COPYRIGHT_INFO", "True", True),
    ("RESPECT_ORIENTATION", "True", True),
    ("LOADER", "'thumbor.loaders.file_loader_http_fallback'", "thumbor.loaders.file_loader_http_fallback"),
    ("FILE_LOADER_ROOT_PATH", "'/srv/images'", "/srv/images"),
    ("HTTP_LOADER_REQUEST_TIMEOUT", "12.5", 12.5),
    ("HTTP_LOADER_PROXY_HOST", "'proxy.internal'", "proxy.internal"),
    ("HTTP_LOADER_PROXY_PORT", "3128", 3128),
    (
        "ALLOWED_SOURCES",
        "[\n    'images.example.com',\n    '(.*\\.)?static\\.example\\.com',\n"
        "    re.compile(r'https://cdn\\.example\\.com/public/'),\n]",
        ["images.example.com", "(.*\\.)?static\\.example\\.com", re.compile(r"https://cdn\.example\.com/public/")],
    ),
    ("STATSD_HOST", '"statsd.internal"', "statsd.internal"),
    ("DETECTORS", "[\n    'thumbor.detectors.face_detector',\n]", ["thumbor.detectors.face_detector"]),
]


def main():
    env = dict(os.environ, HOME="/srv/thumbor")
    text = subprocess.run(
        [sys.executable, "-c", "from thumbor.config import generate_config; generate_config()"],
        env=env, check=True, capture_output=True, text=True,
    ).stdout
    lines = text.split("\n")
    for name, value, _ in EDITS:
        start = next(i for i, line in enumerate(lines) if line.startswith(f"#{name} = "))
        end = start
        if lines[start].endswith("["):
            end = next(i for i in range(start, len(lines)) if lines[i] == "#]")
        lines[start:end + 1] = f"{name} = {value}".split("\n")
    # re.compile needs the module, as in any thumbor.conf that follows thumbor's advice for ALLOWED_SOURCES.
    text = "import re\n\n" + "\n".join(lines)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as out:
        out.write(text)

    from thumbor.config import Config

    config = Config.load(OUT)
    for name, _, expected in EDITS:
        got = getattr(config, name)
        assert got == expected, f"{name}: thumbor reads {got!r}, expected {expected!r}"
    print(f"wrote {OUT}: {len(EDITS)} settings set, thumbor reads each as intended")


if __name__ == "__main__":
    main()
