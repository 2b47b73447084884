#!/usr/bin/env python3
"""libvips 8.18 in process (pyvips + pyvips-binary from PyPI), the reference of Benchmarks/compare's Vips rows
(issue 26); its libvips decodes AVIF but not HEIC (no HEVC decoder built in). One thread (VIPS_CONCURRENCY=1, set before libvips starts) and no operation cache, so every pass
really decodes; the bytes are read once, before timing, like `wi-bench thumb-set`.

  thumb N SIZE FILE...               pyvips.Image.thumbnail_buffer(bytes, SIZE, size="down") of each file (shrink
                                     only, as ours), written to memory
  thumb-jpeg N SIZE QUALITY FILE...  the same, then jpegsave_buffer(Q=QUALITY): a thumbnail service's request

Prints `seconds <per pass>`, `frames <images made per pass>` and `pixels <pixels made per pass>`.
"""
import os
import sys
import time

os.environ["VIPS_CONCURRENCY"] = "1"
import pyvips  # noqa: E402  (after VIPS_CONCURRENCY)


def one(data, size, quality):
    image = pyvips.Image.thumbnail_buffer(data, size, size="down")   # shrink only, as ours (libvips enlarges by default)
    if quality is None:
        image.write_to_memory()   # makes the pixels (libvips is lazy)
    else:
        image.jpegsave_buffer(Q=quality)
    return image.width * image.height


def main():
    command, args = sys.argv[1], sys.argv[2:]
    quality = None
    if command == "thumb":
        n, size, files = int(args[0]), int(args[1]), args[2:]
    elif command == "thumb-jpeg":
        n, size, quality, files = int(args[0]), int(args[1]), int(args[2]), args[3:]
    else:
        sys.exit(f"unknown command {command}")
    pyvips.cache_set_max(0)
    blobs = [open(f, "rb").read() for f in files]
    pixels = sum(one(b, size, quality) for b in blobs)   # warm-up pass, and what a pass makes
    start = time.perf_counter()
    for _ in range(n):
        for b in blobs:
            one(b, size, quality)
    print("seconds", (time.perf_counter() - start) / n)
    print("frames", len(blobs))
    print("pixels", pixels)


if __name__ == "__main__":
    main()
