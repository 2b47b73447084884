/// A colour converter whose C library opens on first use (`SharedLibrary`): `openLibraries()` opens it now, as
/// `LibraryOpeningCoder` does for coders (a decode worker, before its sandbox forbids opening files).
package protocol LibraryOpeningConverter: ImageCoding.ColorConverter {
    /// Opens this converter's library now. Thread safety: any thread (it opens once, under Swift's lock).
    func openLibraries()
}
