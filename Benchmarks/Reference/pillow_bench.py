#!/usr/bin/env python3
"""Pillow references for Benchmarks/compare; each command prints `seconds <per-op seconds>`.

  decode N FILE...              Image.open + load() (Pillow's own mode: RGB/RGBA/L/P, no conversion to RGBA)
  thumb N SIZE FILE             draft('RGB', (SIZE, SIZE)) + thumbnail((SIZE, SIZE)), in process
  thumb-many SIZE FILE...       the same over many files; also prints `rss_mib <peak RSS>`
  frames N FILE...              every frame of each file: seek + load + convert('RGBA') kept in a list (what an
                                animated decode to RGBA frames keeps); prints `frames` and `pixels` of one pass
  thumb-plain N SIZE FILE...    Image.open + thumbnail((SIZE, SIZE)) without draft (WebP, HEIC); prints `frames`
                                and `pixels` of one pass
  service-png N SIZE FILE...    thumbor 7.8's PIL engine on a `fit-in/SIZExSIZE` PNG request, from the bytes (read
                                before timing): Image.open + resize to the fitted size (LANCZOS, its default
                                filter) + save as PNG at compress_level 6 (its PNG_COMPRESSION_LEVEL); prints
                                `frames` and `pixels` of one pass
  resize N W H FILE             the file converted to RGBA once, then resize((W, H), LANCZOS)
  blur N RADIUS FILE            the file converted to RGBA once, then filter(GaussianBlur(RADIUS))
"""
import io
import resource
import sys
import time

from PIL import Image, ImageFilter

try:
    import pillow_heif

    pillow_heif.register_heif_opener()
except ImportError:  # HEIC/AVIF rows are then skipped by compare
    pass

try:
    import pillow_jxl  # noqa: F401  (registers the JPEG XL opener)
except ImportError:  # the JPEG XL rows then fail their check
    pass


def decode(path):
    with Image.open(path) as im:
        im.load()


def thumb(path, size):
    with Image.open(path) as im:
        im.draft("RGB", (size, size))
        im.thumbnail((size, size))


def all_frames(path):
    """Every frame of `path` as its own RGBA image."""
    frames = []
    with Image.open(path) as im:
        for i in range(getattr(im, "n_frames", 1)):
            im.seek(i)
            im.load()
            frames.append(im.convert("RGBA"))
    return frames


def thumb_plain(path, size):
    with Image.open(path) as im:
        im.thumbnail((size, size))
        return [im]


def service_png(data, size):
    with Image.open(io.BytesIO(data)) as im:
        scale = min(size / im.width, size / im.height, 1)
        small = im.resize((max(1, round(im.width * scale)), max(1, round(im.height * scale))), Image.LANCZOS)
        small.save(io.BytesIO(), "PNG", compress_level=6)
        return [small]


def timed(n, files, job):
    """Runs `job` over every file once (warm-up, counted), then n times; prints the per-pass time and counts."""
    frames = [f for path in files for f in job(path)]
    start = time.perf_counter()
    for _ in range(n):
        for path in files:
            job(path)
    print("seconds", (time.perf_counter() - start) / n)
    print("frames", len(frames))
    print("pixels", sum(f.width * f.height for f in frames))


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
    elif cmd == "frames":
        timed(int(argv[1]), argv[2:], all_frames)
    elif cmd == "thumb-plain":
        size = int(argv[2])
        timed(int(argv[1]), argv[3:], lambda path: thumb_plain(path, size))
    elif cmd == "service-png":
        size = int(argv[2])
        blobs = {path: open(path, "rb").read() for path in argv[3:]}
        timed(int(argv[1]), argv[3:], lambda path: service_png(blobs[path], size))
    elif cmd in ("resize", "blur"):
        n = int(argv[1])
        with Image.open(argv[-1]) as im:
            source = im.convert("RGBA")
        if cmd == "resize":
            size = (int(argv[2]), int(argv[3]))
            job = lambda: source.resize(size, Image.LANCZOS)  # noqa: E731
        else:
            blur = ImageFilter.GaussianBlur(float(argv[2]))
            job = lambda: source.filter(blur)  # noqa: E731
        out = job()
        start = time.perf_counter()
        for _ in range(n):
            job()
        print("seconds", (time.perf_counter() - start) / n)
        print("frames", 1)
        print("pixels", out.width * out.height)
    else:
        sys.exit(f"unknown command {cmd}")


if __name__ == "__main__":
    main(sys.argv[1:])
