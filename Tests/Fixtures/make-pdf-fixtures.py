#!/usr/bin/env python3
"""Writes the PDF fixtures in Tests/Fixtures/pdf: hand-made PDFs with known content, so that tests can assert
exact pixels (a PDF point is a pixel at 72 dpi; rectangles on whole points render with sharp edges).

  square.pdf      one 200x100 pt page, white, a red (1 0 0) 40x50 pt square whose lower-left corner is at
                  (20, 30) pt, i.e. pixels x 20..59, y 20..69 from the top-left.
  three-pages.pdf three pages of 60x40 pt: page 1 a red, page 2 a green, page 3 a blue 10x10 pt square at
                  (10, 10) pt (pixels x 10..19, y 20..29).
  rotated.pdf     square.pdf's page with /Rotate 90 (poppler shows it 100x200, turned clockwise).
  encrypted.pdf   square.pdf encrypted by qpdf (AES-256), user password "user", owner password "owner".

Needs qpdf (Debian package qpdf) for encrypted.pdf. Run: python3 Tests/Fixtures/make-pdf-fixtures.py
"""
import os
import subprocess

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pdf")


def pdf(pages, rotate=0):
    """A PDF whose pages are (width, height, content stream) tuples, with a correct xref table."""
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", None]
    kids = []
    for width, height, content in pages:
        page_number = len(objects) + 1
        kids.append(f"{page_number} 0 R")
        rotation = f" /Rotate {rotate}" if rotate else ""
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width} {height}]{rotation} "
                       f"/Contents {page_number + 1} 0 R /Resources << >> >>")
        data = content.encode()
        objects.append(f"<< /Length {len(data)} >>\nstream\n{content}\nendstream")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>"
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def main():
    os.makedirs(HERE, exist_ok=True)
    square = [(200, 100, "1 0 0 rg 20 30 40 50 re f")]
    write("square.pdf", pdf(square))
    write("three-pages.pdf", pdf([(60, 40, f"{c} rg 10 10 10 10 re f") for c in ("1 0 0", "0 1 0", "0 0 1")]))
    write("rotated.pdf", pdf(square, rotate=90))
    subprocess.run(["qpdf", "--encrypt", "user", "owner", "256", "--", os.path.join(HERE, "square.pdf"),
                    os.path.join(HERE, "encrypted.pdf")], check=True)


if __name__ == "__main__":
    main()
