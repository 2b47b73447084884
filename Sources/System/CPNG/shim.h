// libpng, as Debian's libpng-dev installs it. Only CPNGShim includes this: libpng reports errors with
// longjmp, so every call into it lives in C (see CPNGShim).
#include <png.h>
