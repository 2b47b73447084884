// libtiff's functions, called through a table bound with dlsym the first time a TIFF is read or written
// (WICoderTIFF's `TIFFLibrary`, WICore's `SharedLibrary`), so that a process that meets no TIFF never loads libtiff
// and its codecs (jbig, lzma, zstd, Lerc, deflate). Each field has the type of the libtiff function of the same name
// (__typeof__ over tiffio.h), and each name below is redefined to read its field, so the shim's code calls libtiff
// as it always did and the compiler checks every call. Included by internal.h after tiffio.h; not seen by Swift.
#ifndef WI_TIFF_FUNCTIONS_H
#define WI_TIFF_FUNCTIONS_H
#include <tiffio.h>

#define WI_TIFF_FUNCTIONS(X) \
    X(TIFFClientOpenExt) \
    X(TIFFClose) \
    X(TIFFComputeTile) \
    X(TIFFDefaultStripSize) \
    X(TIFFGetField) \
    X(TIFFGetFieldDefaulted) \
    X(TIFFGetVersion) \
    X(TIFFIsTiled) \
    X(TIFFNumberOfDirectories) \
    X(TIFFOpenOptionsAlloc) \
    X(TIFFOpenOptionsFree) \
    X(TIFFOpenOptionsSetErrorHandlerExtR) \
    X(TIFFOpenOptionsSetMaxSingleMemAlloc) \
    X(TIFFOpenOptionsSetWarningHandlerExtR) \
    X(TIFFRGBAImageBegin) \
    X(TIFFRGBAImageEnd) \
    X(TIFFRGBAImageGet) \
    X(TIFFRGBAImageOK) \
    X(TIFFReadEncodedStrip) \
    X(TIFFReadEncodedTile) \
    X(TIFFReadScanline) \
    X(TIFFScanlineSize64) \
    X(TIFFSetDirectory) \
    X(TIFFSetField) \
    X(TIFFTileRowSize64) \
    X(TIFFTileSize64) \
    X(TIFFWriteDirectory) \
    X(TIFFWriteScanline)

#define WI_TIFF_FIELD(name) __typeof__(name) *name;
/// libtiff's functions, bound by wi_tiff_bind.
typedef struct { WI_TIFF_FUNCTIONS(WI_TIFF_FIELD) } wi_tiff_functions;
#undef WI_TIFF_FIELD

/// The table every call below goes through; complete once wi_tiff_bind(handle, 1) returned NULL.
extern wi_tiff_functions wi_tiff_library;

#ifndef WI_TIFF_NO_RENAME
#define TIFFClientOpenExt (wi_tiff_library.TIFFClientOpenExt)
#define TIFFClose (wi_tiff_library.TIFFClose)
#define TIFFComputeTile (wi_tiff_library.TIFFComputeTile)
#define TIFFDefaultStripSize (wi_tiff_library.TIFFDefaultStripSize)
#define TIFFGetField (wi_tiff_library.TIFFGetField)
#define TIFFGetFieldDefaulted (wi_tiff_library.TIFFGetFieldDefaulted)
#define TIFFGetVersion (wi_tiff_library.TIFFGetVersion)
#define TIFFIsTiled (wi_tiff_library.TIFFIsTiled)
#define TIFFNumberOfDirectories (wi_tiff_library.TIFFNumberOfDirectories)
#define TIFFOpenOptionsAlloc (wi_tiff_library.TIFFOpenOptionsAlloc)
#define TIFFOpenOptionsFree (wi_tiff_library.TIFFOpenOptionsFree)
#define TIFFOpenOptionsSetErrorHandlerExtR (wi_tiff_library.TIFFOpenOptionsSetErrorHandlerExtR)
#define TIFFOpenOptionsSetMaxSingleMemAlloc (wi_tiff_library.TIFFOpenOptionsSetMaxSingleMemAlloc)
#define TIFFOpenOptionsSetWarningHandlerExtR (wi_tiff_library.TIFFOpenOptionsSetWarningHandlerExtR)
#define TIFFRGBAImageBegin (wi_tiff_library.TIFFRGBAImageBegin)
#define TIFFRGBAImageEnd (wi_tiff_library.TIFFRGBAImageEnd)
#define TIFFRGBAImageGet (wi_tiff_library.TIFFRGBAImageGet)
#define TIFFRGBAImageOK (wi_tiff_library.TIFFRGBAImageOK)
#define TIFFReadEncodedStrip (wi_tiff_library.TIFFReadEncodedStrip)
#define TIFFReadEncodedTile (wi_tiff_library.TIFFReadEncodedTile)
#define TIFFReadScanline (wi_tiff_library.TIFFReadScanline)
#define TIFFScanlineSize64 (wi_tiff_library.TIFFScanlineSize64)
#define TIFFSetDirectory (wi_tiff_library.TIFFSetDirectory)
#define TIFFSetField (wi_tiff_library.TIFFSetField)
#define TIFFTileRowSize64 (wi_tiff_library.TIFFTileRowSize64)
#define TIFFTileSize64 (wi_tiff_library.TIFFTileSize64)
#define TIFFWriteDirectory (wi_tiff_library.TIFFWriteDirectory)
#define TIFFWriteScanline (wi_tiff_library.TIFFWriteScanline)
#endif

#endif
