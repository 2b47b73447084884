#!/usr/bin/env python3
"""Writes the made .svgz fixtures in svg/svgz/ (the librsvg-*.svgz there are librsvg's own test files):

- twelvemonkeys-Android_robot.svgz: svg/peers/twelvemonkeys-Android_robot.svg through gzip -9 with its name stored
  (the header's FNAME field), as `gzip -9 -c FILE` writes it; mtime 0 so that the bytes do not change.
- crafted-bomb.svgz: a valid 10x10 SVG whose comment is 64 MiB of spaces, level 9: 64 KiB that inflate to 64 MiB,
  four times SVGCoder's default document limit (16 MiB), starting like an SVG so that format detection takes it
  for one (a gzip bomb must be refused by the decoder, as it inflates, not by the sniffer).

Run from anywhere: python3 Tests/Fixtures/make-svgz-fixtures.py
"""
import gzip
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "svg", "svgz")


def write(name, data, stored_name=""):
    with open(os.path.join(OUT, name), "wb") as raw:
        with gzip.GzipFile(filename=stored_name, mode="wb", compresslevel=9, fileobj=raw, mtime=0) as member:
            member.write(data)


def main():
    source = os.path.join(HERE, "svg", "peers", "twelvemonkeys-Android_robot.svg")
    write("twelvemonkeys-Android_robot.svgz", open(source, "rb").read(), "twelvemonkeys-Android_robot.svg")
    head = b"<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><!--"
    write("crafted-bomb.svgz", head + b" " * (64 << 20) + b"--></svg>\n")


if __name__ == "__main__":
    main()
