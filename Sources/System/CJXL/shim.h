// libjxl 0.7 (Debian 12's libjxl-dev): the JxlDecoder and JxlEncoder APIs.
//
// No C shim is needed for errors: libjxl reports them by return codes (no setjmp/longjmp, no variadic calls), and its
// structs and enums import into Swift as they are. libjxl_threads is not linked: the coder runs on the caller's
// thread (the framework's CPU pool already has one thread per core; see docs/ARCHITECTURE.md).
// CJXLShim holds the table of the functions WICoderJXL calls, which it opens with dlopen on first use.
#include <jxl/decode.h>
#include <jxl/encode.h>
