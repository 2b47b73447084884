// Little CMS 2 (liblcms2-dev). Only CLCMSShim includes it: Swift never calls lcms directly.
#include <lcms2.h>
