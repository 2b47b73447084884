// pixman: compositing, affine transforms and convolution filters on premultiplied pixels.
#include <pixman.h>
