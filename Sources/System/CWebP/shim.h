// libwebp with its demux (animated decode) and mux (container, metadata) libraries.
//
// No C shim target is needed: libwebp reports errors by return codes (no setjmp/longjmp), and its initializers
// (WebPInitDecoderConfig, WebPConfigInit, WebPPictureInit, WebPAnimDecoderOptionsInit, WebPAnimEncoderOptionsInit,
// WebPDemux, WebPMuxCreate, WebPAnimDecoderNew, WebPAnimEncoderNew, WebPDataInit...) are `static inline` functions
// over the exported *Internal(..., ABI version) entry points, which Swift imports and calls like any C function.
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
