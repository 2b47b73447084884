#!/usr/bin/env python3
"""libvips in process as a thumbnail service's ceiling (issue 41): what a Service request does, without HTTP, without
an origin, one process per core, for the Service rows of Benchmarks/compare.

  vips_service.py SECONDS EXT QUALITY FILE...

Each process reads the files once, then, until SECONDS have passed, cycles over them: thumbnail_buffer to fit
512x512 (shrink only, as `fit-in/512x512`), then saves in the source's format as `wi serve` answers it (EXT jpg:
jpegsave Q=QUALITY, baseline, Huffman tables optimized as `wi serve`'s encoder and thumbor's PIL engine optimize
them (libvips' default does not: a cheaper encode than the service's); png: pngsave at libvips' default compression; webp: webpsave Q=QUALITY), to memory. One
libvips thread per process (VIPS_CONCURRENCY=1) and no operation cache, so every pass does the work. A warm-up pass
runs before the clock starts. Prints `rate <images per second, all processes>` and `version <libvips version>`.
"""
import multiprocessing
import os
import sys
import time

os.environ["VIPS_CONCURRENCY"] = "1"
import pyvips  # noqa: E402  (after VIPS_CONCURRENCY)


def save(image, ext, quality):
    if ext == "jpg":
        return image.jpegsave_buffer(Q=quality, optimize_coding=True)
    if ext == "png":
        return image.pngsave_buffer()
    if ext == "webp":
        return image.webpsave_buffer(Q=quality)
    raise SystemExit(f"unknown format {ext}")


def one(data, ext, quality):
    save(pyvips.Image.thumbnail_buffer(data, 512, height=512, size="down"), ext, quality)


def worker(args):
    seconds, ext, quality, files, start = args
    pyvips.cache_set_max(0)
    blobs = [open(f, "rb").read() for f in files]
    for blob in blobs:   # warm-up
        one(blob, ext, quality)
    while time.time() < start:
        time.sleep(0.001)
    made, deadline, index = 0, start + seconds, 0
    while time.time() < deadline:
        one(blobs[index % len(blobs)], ext, quality)
        made += 1
        index += 1
    return made, time.time() - start


def main():
    seconds, ext, quality, files = float(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    processes = os.cpu_count()
    start = time.time() + 2 + 0.2 * len(files)   # every process warmed up before the clock starts
    with multiprocessing.Pool(processes) as pool:
        results = pool.map(worker, [(seconds, ext, quality, files, start)] * processes)
    print(f"rate {sum(made for made, _ in results) / max(elapsed for _, elapsed in results)}")
    print(f"version {pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}")


if __name__ == "__main__":
    main()
