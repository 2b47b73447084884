#!/usr/bin/env python3
"""Pillow references for Benchmarks/compare; each command prints `seconds <per-op seconds>`.

  decode N FILE...              Image.open + load() (Pillow's own mode: RGB/RGBA/L/P, no conversion to RGBA)
  thumb N SIZE FILE             draft('RGB', (SIZE, SIZE)) + thumbnail((SIZE, SIZE)), in process
  thumb-many SIZE FILE...       the same over many files; also prints `rss_mib <peak RSS>`
"""
import resource
import sys
import time

from PIL import Image

try:
    import pillow_heif

    pillow_heif.register_heif_opener()
except ImportError:  # HEIC/AVIF rows are then skipped by compare
    pass


def decode(path):
    with Image.open(path) as im:
        im.load()


def thumb(path, size):
    with Image.open(path) as im:
        im.draft("RGB", (size, size))
        im.thumbnail((size, size))


def main(argv):
    cmd = argv[0]
    if cmd == "decode":
        n, files = int(argv[1]), argv[2:]
        for f in files:
            decode(f)
        start = time.perf_counter()
        for _ in range(n):
            for f in files:
                decode(f)
        print("seconds", (time.perf_counter() - start) / n)
    elif cmd == "thumb":
        n, size, path = int(argv[1]), int(argv[2]), argv[3]
        thumb(path, size)
        start = time.perf_counter()
        for _ in range(n):
            thumb(path, size)
        print("seconds", (time.perf_counter() - start) / n)
    elif cmd == "thumb-many":
        size, files = int(argv[1]), argv[2:]
        start = time.perf_counter()
        for f in files:
            thumb(f, size)
        print("seconds", (time.perf_counter() - start) / len(files))
        print("rss_mib", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    else:
        sys.exit(f"unknown command {cmd}")


if __name__ == "__main__":
    main(sys.argv[1:])
