#!/usr/bin/env python3
"""The end-to-end reference for Benchmarks/compare's Pipeline rows: what a Python service would write with
requests and Pillow to fetch images, thumbnail them to 256 px and keep the thumbnails in a disk cache.

  cold LIST CACHE_DIR   for every URL of LIST (one a line), on a pool of 6 threads (one requests.Session each,
                        keep-alive): GET, Image.open + thumbnail((256, 256)) (which uses JPEG draft mode), then
                        save the thumbnail in the source's format (GIF/PNG/WebP/JPEG) to CACHE_DIR/<sha1 of URL>
                        via a temporary file and os.replace
  warm LIST CACHE_DIR   the same URLs answered from CACHE_DIR: open + load() of each stored thumbnail, same pool

Prints `done N` and `failed N` (the first error goes to stderr).
"""
import hashlib
import io
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import requests
from PIL import Image

SIZE = 256
THREADS = 6
local = threading.local()


def session():
    if not hasattr(local, "session"):
        local.session = requests.Session()
    return local.session


def path_for(cache, url):
    return os.path.join(cache, hashlib.sha1(url.encode()).hexdigest())


def cold(url, cache):
    response = session().get(url, timeout=30)
    response.raise_for_status()
    with Image.open(io.BytesIO(response.content)) as im:
        fmt = im.format
        im.thumbnail((SIZE, SIZE))
        if max(im.size) > SIZE:
            raise ValueError(f"{url}: {im.size} larger than {SIZE} px")
        path = path_for(cache, url)
        temporary = f"{path}.{threading.get_ident()}.tmp"
        im.save(temporary, format=fmt)
    os.replace(temporary, path)


def warm(url, cache):
    with Image.open(path_for(cache, url)) as im:
        im.load()
        if max(im.size) > SIZE:
            raise ValueError(f"{url}: {im.size} larger than {SIZE} px")


def main():
    mode, list_path, cache = sys.argv[1], sys.argv[2], sys.argv[3]
    job = {"cold": cold, "warm": warm}[mode]
    with open(list_path) as f:
        urls = [line.strip() for line in f if line.strip()]
    os.makedirs(cache, exist_ok=True)

    def attempt(url):
        try:
            job(url, cache)
            return None
        except Exception as error:  # counted and reported, like the Swift side's failures
            return f"{url}: {error!r}"

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        errors = [e for e in pool.map(attempt, urls) if e is not None]
    print("done", len(urls) - len(errors))
    print("failed", len(errors))
    if errors:
        print("first error:", errors[0], file=sys.stderr)


if __name__ == "__main__":
    main()
