// libtiff 4.x (libtiff-dev). Swift calls only the non-variadic functions; TIFFGetField/TIFFSetField are variadic
// and go through CTIFFShim.
#include <tiffio.h>
