// libjpeg-turbo: the libjpeg API (jpeglib.h) and the TurboJPEG API (turbojpeg.h), from libjpeg-dev and
// libturbojpeg0-dev. jpeglib.h needs stdio.h first for FILE.
#include <stdio.h>
#include <jpeglib.h>
#include <turbojpeg.h>
