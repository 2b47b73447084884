// librsvg (SVG rendering through cairo), Debian 12 ships 2.54; glib's GInputStream and GError come with it.
#include <librsvg/rsvg.h>
#include <cairo.h>
#include <gio/gio.h>
