// giflib 5.x. GIFLIB_MAJOR/MINOR/RELEASE are macros; expose the version as a function Swift can call.
#include <gif_lib.h>

static inline int cgif_version_major(void) { return GIFLIB_MAJOR; }
static inline int cgif_version_minor(void) { return GIFLIB_MINOR; }
static inline int cgif_version_release(void) { return GIFLIB_RELEASE; }
