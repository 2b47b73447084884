// cairo's image surfaces: librsvg and poppler-glib draw into them (Debian 12 ships cairo 1.16).
#include <cairo.h>
