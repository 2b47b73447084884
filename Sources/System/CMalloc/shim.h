// glibc's malloc tuning (mallopt, malloc_trim), which the Glibc module does not bring: `wi serve` keeps freed pixel
// buffers in malloc's arenas for the next request and gives them back to the system when it is idle.
#include <malloc.h>
