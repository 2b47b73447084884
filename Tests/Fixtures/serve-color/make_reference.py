"""Writes thumbor-color-reference.tsv: thumbor 7.8's own colour filters applied to the 24x16 RGBA pattern of
../serve-blur/make_reference.py, for the arguments ServeColorFilterTests checks the colour transformers against.

Run with thumbor from PyPI installed (`pip install thumbor==7.8.0`, which brings Pillow):
    python3 make_reference.py > thumbor-color-reference.tsv
brightness, contrast, rgb, colorize, curve, noise (with a seed), saturation, sharpen, equalize, round_corner and
convolution call thumbor's extension modules (thumbor.ext.filters._brightness and so on) on the RGBA bytes, as its
filters do with `image_data_as_rgb()`; grayscale is what thumbor's PIL engine does,
`Image.convert("LA")`, written back out as RGBA (L, L, L, A) so both sides compare the same bytes.
Each line: the filter as a URL writes it, then the RGBA8 result as hex (rows top to bottom): 24x16, or 48x40
for sharpen (the same pattern, larger).
"""
import os
import sys

from PIL import Image
import ast

from thumbor.ext.filters import (_brightness, _colorize, _contrast, _convolution, _curve, _equalize, _noise, _rgb,
                                 _round_corner, _saturation, _sharpen)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "serve-blur"))
from make_reference import HEIGHT, WIDTH, pattern  # noqa: E402  (the blur reference's pattern)


def fresh():
    # The extension modules change the buffer they are given: a new one each time.
    return bytes(bytearray(pattern()))


def grayscale():
    la = Image.frombytes("RGBA", (WIDTH, HEIGHT), pattern()).convert("LA").tobytes()
    out = bytearray()
    for index in range(0, len(la), 2):
        out += bytes([la[index], la[index], la[index], la[index + 1]])
    return bytes(out)


def curve(all_channels, red, green, blue):
    # As thumbor's curve filter calls it: each curve a tuple of (x, y) tuples.
    curves = [tuple(ast.literal_eval(text)) for text in (all_channels, red, green, blue)]
    return _curve.apply("RGBA", fresh(), *curves)


CURVE_A = ("[(0,0),(40,59),(255,255)]",
           "[(32,59),(64,80),(92,111),(128,153),(140,169),(164,201),(192,214),(224,215),(240,214),(255,212)]",
           "[(34,41),(64,51),(92,76),(128,112),(140,124),(164,147),(192,180),(224,216),(240,236),(255,255)]",
           "[(40,46),(64,55),(92,83),(128,127),(140,144),(164,174),(192,197),(224,199),(240,197),(255,198)]")
CURVE_B = ("[(0,0),(255,255)]", "[(0,50),(128,170),(255,254)]", "[(10,0),(128,182),(250,252),]", "[(0,48)]")


def convolution(matrix, columns, normalize):
    # As thumbor's convolution filter calls it: the weights as strings, the image's mode and size.
    return _convolution.apply("RGBA", fresh(), WIDTH, HEIGHT, tuple(matrix.split(";")), columns, normalize)


CASES = [
    ("brightness(-100)", lambda: _brightness.apply("RGBA", -100, fresh())),
    ("brightness(-37)", lambda: _brightness.apply("RGBA", -37, fresh())),
    ("brightness(25)", lambda: _brightness.apply("RGBA", 25, fresh())),
    ("brightness(150)", lambda: _brightness.apply("RGBA", 150, fresh())),
    ("contrast(-100)", lambda: _contrast.apply("RGBA", -100, fresh())),
    ("contrast(-37)", lambda: _contrast.apply("RGBA", -37, fresh())),
    ("contrast(25)", lambda: _contrast.apply("RGBA", 25, fresh())),
    ("contrast(100)", lambda: _contrast.apply("RGBA", 100, fresh())),
    ("rgb(10,-20,30)", lambda: _rgb.apply("RGBA", 10, -20, 30, fresh())),
    ("rgb(-100,0,100)", lambda: _rgb.apply("RGBA", -100, 0, 100, fresh())),
    ("saturation(0)", lambda: _saturation.apply("RGBA", 0.0, fresh())),
    ("saturation(0.5)", lambda: _saturation.apply("RGBA", 0.5, fresh())),
    ("saturation(1.7)", lambda: _saturation.apply("RGBA", 1.7, fresh())),
    ("saturation(-0.3)", lambda: _saturation.apply("RGBA", -0.3, fresh())),
    ("grayscale()", grayscale),
    # sharpen reads outside its buffers on sides under 32 pixels: these run on the 48x40 pattern.
    ("sharpen(2,1,true)", lambda: _sharpen.apply("RGBA", 48, 40, 2.0, 1.0, True, bytes(bytearray(pattern(48, 40))))),
    ("sharpen(1.5,0.5,false)", lambda: _sharpen.apply("RGBA", 48, 40, 1.5, 0.5, False, bytes(bytearray(pattern(48, 40))))),
    ("sharpen(4,3,false)", lambda: _sharpen.apply("RGBA", 48, 40, 4.0, 3.0, False, bytes(bytearray(pattern(48, 40))))),
    ("colorize(30,60,90,ff8000)", lambda: _colorize.apply("RGBA", 30, 60, 90, 255, 128, 0, fresh())),
    ("colorize(0,100,250,102030)", lambda: _colorize.apply("RGBA", 0, 100, 250, 16, 32, 48, fresh())),
    ("noise(40,7)", lambda: _noise.apply("RGBA", 40, fresh(), 7)),
    ("noise(255,123456)", lambda: _noise.apply("RGBA", 255, fresh(), 123456)),
    (f"curve({','.join(CURVE_A)})", lambda: curve(*CURVE_A)),
    (f"curve({','.join(CURVE_B)})", lambda: curve(*CURVE_B)),
    ("convolution(1;2;1;2;4;2;1;2;1,3,true)", lambda: convolution("1;2;1;2;4;2;1;2;1", 3, True)),
    ("convolution(0;-1;0;-1;5;-1;0;-1;0,3,false)", lambda: convolution("0;-1;0;-1;5;-1;0;-1;0", 3, False)),
    ("convolution(1;1;1;1;1,5,true)", lambda: convolution("1;1;1;1;1", 5, True)),
    ("convolution(1;0;-1,1,false)", lambda: convolution("1;0;-1", 1, False)),
    ("convolution(-1;-1;-1;-1;8;-1;-1;-1;-1,3,true)", lambda: convolution("-1;-1;-1;-1;8;-1;-1;-1;-1", 3, True)),
    ("equalize()", lambda: _equalize.apply("RGBA", fresh())),
    # round_corner as thumbor's filter calls it: anti-aliasing on, the radii, the colour, the size, transparent.
    ("round_corner(5,255,0,0)", lambda: _round_corner.apply(1, "RGBA", 5, 5, 255, 0, 0, WIDTH, HEIGHT, fresh(), False)),
    ("round_corner(8|3,0,0,255)", lambda: _round_corner.apply(1, "RGBA", 8, 3, 0, 0, 255, WIDTH, HEIGHT, fresh(), False)),
    ("round_corner(3|7,200,100,0,1)",
     lambda: _round_corner.apply(1, "RGBA", 3, 7, 200, 100, 0, WIDTH, HEIGHT, fresh(), True)),
    ("round_corner(6,10,20,30,true)",
     lambda: _round_corner.apply(1, "RGBA", 6, 6, 10, 20, 30, WIDTH, HEIGHT, fresh(), True)),
    ("round_corner(40,1,2,3)", lambda: _round_corner.apply(1, "RGBA", 40, 40, 1, 2, 3, WIDTH, HEIGHT, fresh(), False)),
    ("convolution(0.5;1.5;0.25;2;1;2;0.25;1.5;0.5;1;1;1;1;1;1,3)", lambda: convolution("0.5;1.5;0.25;2;1;2;0.25;1.5;0.5;1;1;1;1;1;1", 3, True)),
]

print("# filter\tRGBA8 24x16 after thumbor 7.8's filter of the pattern in make_reference.py")
for name, run in CASES:
    print(f"{name}\t{bytes(run()).hex()}")
