// poppler-glib (PDF rendering through cairo), Debian 12 ships poppler 22.12.
#include <poppler.h>
#include <cairo.h>
#include <gio/gio.h>
