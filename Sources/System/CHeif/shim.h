// libheif (HEIC via libde265/x265, AVIF via dav1d/aom), Debian 12 ships 1.15.
#include <libheif/heif.h>
