"""Writes thumbor-watermark-reference.tsv: thumbor 7.8's own watermark filter (thumbor.filters.watermark, its PIL
engine and its _alpha and _composite extensions, the watermark read by its file loader) over a 40x30 RGBA image,
for the arguments CompositingTransformerTests (WITransform) checks OverlayTransformer against, and its background_color filter (the same
_composite over a canvas of the colour) on that image.

Run with thumbor from PyPI installed (`pip install thumbor==7.8.0`, which brings Pillow):
    python3 make_reference.py > thumbor-watermark-reference.tsv
The three images are made by the functions below, which CompositingTransformerTests rebuilds. Each line: the filter as a
URL writes it, then the 40x30 RGBA8 result as hex (rows top to bottom). Lines whose filter resizes the watermark
(a fifth or sixth argument) are Pillow's Lanczos resize, which WebImage does not reproduce: the test compares
those within a tolerance.
"""
import asyncio
import io
import os
import tempfile

from PIL import Image
from thumbor.config import Config
from thumbor.context import Context, RequestParameters
from thumbor.engines.pil import Engine
from thumbor.filters.background_color import Filter as BackgroundColor
from thumbor.filters.watermark import Filter
from thumbor.importer import Importer


def image(width, height, pixel):
    data = bytearray()
    for y in range(height):
        for x in range(width):
            data += bytes(pixel(x, y))
    return Image.frombytes("RGBA", (width, height), bytes(data))


def base():
    return image(40, 30, lambda x, y: ((x * 29 + y * 7) % 256, (x * x + y * 5) % 256, (200 - x * 3 + y * y) % 256,
                                       0 if (x + 2 * y) % 13 == 0 else (255 if (x + y) % 7 else 90)))


def mark():
    return image(7, 5, lambda x, y: ((x * 50) % 256, (y * 60) % 256, 180, (x * 40 + y * 30) % 256))


def small():
    return image(3, 2, lambda x, y: (255, 255 - x * 80, y * 200, 200))


CASES = [
    "watermark(mark.png,0,0,0)",
    "watermark(mark.png,3,-2,40)",
    "watermark(mark.png,-0,center,25)",
    "watermark(mark.png,center,-0,0)",
    "watermark(mark.png,10p,-20p,30)",
    "watermark(mark.png,-7p,15p,0)",
    "watermark(mark.png,36,27,0)",
    "watermark(mark.png,-38,2,0)",
    "watermark(mark.png,repeat,4,50)",
    "watermark(mark.png,5,repeat,50)",
    "watermark(mark.png,repeat,repeat,10)",
    "watermark(small.png,repeat,repeat,0)",
    "watermark(mark.png,center,center,100)",
    "watermark(mark.png,0,0,0,50,none)",
    "watermark(mark.png,-0,-0,20,none,40)",
    "background_color(ff8800)",
    "background_color(blue)",
    "background_color(0a0)",
]


def run(root, text):
    config = Config(FILE_LOADER_ROOT_PATH=root, LOADER="thumbor.loaders.file_loader",
                    STORAGE="thumbor.storages.no_storage")
    importer = Importer(config)
    importer.import_modules()
    context = Context(config=config, importer=importer)
    context.request = RequestParameters()
    engine = Engine(context)
    buffer = io.BytesIO()
    base().save(buffer, "PNG")
    engine.load(buffer.getvalue(), ".png")
    context.modules.engine = engine
    kind = BackgroundColor if text.startswith("background_color") else Filter
    kind.pre_compile()
    asyncio.run(kind(text, context).run())
    return engine.image.convert("RGBA").tobytes()


if __name__ == "__main__":
    folder = tempfile.mkdtemp()
    mark().save(os.path.join(folder, "mark.png"))
    small().save(os.path.join(folder, "small.png"))
    print("# filter\tRGBA8 40x30 after thumbor 7.8's watermark() over the base image of make_reference.py")
    for case in CASES:
        print(f"{case}\t{run(folder, case).hex()}")
