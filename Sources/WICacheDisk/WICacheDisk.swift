// WICacheDisk: the on-disk data cache (disk kind of WICore's ImageCache contract).
// Its implementation lands with issue 5; the target exists so that apps can already name the product.
