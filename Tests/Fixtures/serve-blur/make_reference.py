"""Writes thumbor-blur-reference.tsv: thumbor 7.8's own blur (thumbor.filters.blur.apply_blur, its C convolution)
applied to a 24x16 RGBA pattern, for the (radius, sigma) pairs WIServeTests checks ThumborBlur against.

Run with thumbor from PyPI installed (`pip install thumbor==7.8.0`): python3 make_reference.py > thumbor-blur-reference.tsv
Each line: radius, sigma, then the 24x16 RGBA8 result as hex (rows top to bottom). The pattern is `pattern()` below,
which ServeBlurTests rebuilds.
"""
from thumbor.filters.blur import apply_blur

WIDTH, HEIGHT = 24, 16
CASES = [(1, 0.0), (3, 0.0), (4, 2.5), (6, 1.2), (9, 30.0)]


def pattern(width=WIDTH, height=HEIGHT):
    data = bytearray()
    for y in range(height):
        for x in range(width):
            data += bytes([(x * 37 + y * 11) % 256, (x * x + 3 * y) % 256, (255 - x * 9 + y * y) % 256,
                           128 if (x + y) % 5 == 0 else 255])
    return bytes(data)


if __name__ == "__main__":
    print("# radius\tsigma\tRGBA8 24x16 after thumbor 7.8 blur(radius,sigma) of the pattern in make_reference.py")
    for radius, sigma in CASES:
        out = apply_blur("RGBA", bytes(pattern()), (WIDTH, HEIGHT), radius, sigma)
        print(f"{radius}\t{sigma}\t{bytes(out).hex()}")
