#!/usr/bin/env python3
"""The reference for Benchmarks/compare's Pipeline rows on real corpus images (issue 26): the 25-line script a
Python programmer writes for `wi fetch --thumbnail 256 --out DIR --cache-dir DIR`, urllib + Pillow on 6 threads.

  cold LIST CACHE OUT   per URL: GET (urllib), keep the original bytes in CACHE/<sha1 of URL>, thumbnail the first
                        frame to fit 256 x 256 (Image.thumbnail: JPEG draft mode, then a reducing resample), save it
                        as a PNG in OUT
  warm LIST CACHE OUT   the same from the kept bytes instead of the network

Prints `done N` and `failed N` (the first error goes to stderr).
"""
import hashlib, os, sys, urllib.request
from concurrent.futures import ThreadPoolExecutor
from PIL import Image


def one(mode, index, url, cache, out):
    kept = os.path.join(cache, hashlib.sha1(url.encode()).hexdigest())
    if mode == "cold":
        with urllib.request.urlopen(url, timeout=30) as response:
            data = response.read()
        with open(kept + ".tmp", "wb") as f:
            f.write(data)
        os.replace(kept + ".tmp", kept)
    with Image.open(kept) as im:                        # the first frame of an animation
        im.thumbnail((256, 256))
        if im.mode not in ("1", "L", "LA", "I", "I;16", "P", "RGB", "RGBA"):   # CMYK, YCbCr...: not in PNG
            im = im.convert("RGBA")
        im.save(os.path.join(out, f"{index}-{os.path.basename(url).rsplit('.', 1)[0]}.png"))


def main():
    mode, urls, cache, out = sys.argv[1], open(sys.argv[2]).read().split(), sys.argv[3], sys.argv[4]
    os.makedirs(cache, exist_ok=True)
    os.makedirs(out, exist_ok=True)
    with ThreadPoolExecutor(max_workers=6) as pool:
        jobs = [pool.submit(one, mode, index, url, cache, out) for index, url in enumerate(urls)]
    failures = [(url, job.exception()) for url, job in zip(urls, jobs) if job.exception()]   # counted, like wi's
    print("done", len(urls) - len(failures))
    print("failed", len(failures))
    for url, error in failures[:1]:
        print(f"first error: {url}: {error!r}", file=sys.stderr)


if __name__ == "__main__":
    main()
