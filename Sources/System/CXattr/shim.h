// Extended attributes (getxattr, setxattr, removexattr): glibc declares them in <sys/xattr.h>, which Swift's Glibc
// module does not include. WICacheDisk keeps an entry's extended data in a `user.` attribute.
#include <sys/xattr.h>
