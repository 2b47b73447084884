#!/usr/bin/env python3
"""Writes thumbor-signatures.tsv: URLs signed by thumbor's own signer (libthumbor's CryptoURL), so that the
WIServe tests check our HMAC-SHA1 signatures and our URL parser against it without Python.

Usage: python3 -m venv /tmp/venv && /tmp/venv/bin/pip install libthumbor==2.0.2
       /tmp/venv/bin/python Tests/Fixtures/serve/make-thumbor-signatures.py > Tests/Fixtures/serve/thumbor-signatures.tsv
Columns: key, the signed URL path as libthumbor generates it.
"""
from libthumbor import CryptoURL

CASES = [
    ("my-security-key", dict(width=300, height=200, image_url="example.com/a.jpg")),
    ("my-security-key", dict(width=300, height=200, smart=True, image_url="example.com/a.jpg")),
    ("my-security-key", dict(width=512, height=512, fit_in=True, filters=["quality(80)"],
                             image_url="http://127.0.0.1:8080/photo.jpg")),
    ("my-security-key", dict(width=300, height=200, fit_in=True, filters=["quality(80)", "fill(red)"],
                             image_url="http://example.com/a.jpg")),
    ("my-security-key", dict(crop=((10, 20), (110, 220)), width=-50, height=-40, halign="left", valign="top",
                             image_url="example.com/a.jpg")),
    ("my-security-key", dict(width=0, height=100, filters=["format(webp)", "strip_exif()"],
                             image_url="https://images.example.org/path/to/picture.png?size=large&v=2")),
    ("another key with spaces", dict(width=64, height=64, halign="right", valign="bottom",
                                     filters=["blur(3)", "rotate(90)", "round_corner(10,255,255,255)"],
                                     image_url="example.com/b.gif")),
    ("punctuated!key#1", dict(width=100, height=100, filters=["no_upscale()"], image_url="example.com/c.webp")),
    ("k", dict(image_url="example.com/plain.jpg")),
    ("a-much-longer-secret-key-that-is-more-than-sixty-four-bytes-long-to-exercise-the-hashed-key-path",
     dict(width=10, height=10, image_url="example.com/d.png")),
]

print("key\tpath")
for key, options in CASES:
    print(f"{key}\t{CryptoURL(key=key).generate(**options)}")
