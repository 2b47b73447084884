// hiredis, the Redis C client (Debian 12 ships 0.14).
#include <hiredis/hiredis.h>
