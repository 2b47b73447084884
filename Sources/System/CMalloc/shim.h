// glibc's malloc tuning (mallopt, malloc_trim), which the Glibc module does not bring: `wi serve` lowers the
// threshold above which allocations are mapped on their own, so that freed pixel buffers go back to the system.
#include <malloc.h>
