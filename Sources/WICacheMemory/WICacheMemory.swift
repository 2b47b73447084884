// WICacheMemory: the in-process image cache (memory kind of WICore's ImageCache contract).
// Its implementation lands with issue 4; the target exists so that apps can already name the product.
