/// The loader side of a load, nested here so that WICore's top level keeps the contracts an app meets first:
/// what a request carries (`HTTPRequest`, `Identity`, `Priority`, the modifiers and the decryptor), what a
/// loader reports (`Event`, `Progress`, `ResponseHead`, `Metrics`) and its operation handle (`Operation`).
///
/// Thread safety: a namespace; each nested type states its own.
public enum ImageLoading {}

/// What coder authors use beyond `ImageCoder`: here the frame buffer of animations, size rules and the dependency-free
/// resampler, which WICore itself uses; the EXIF and XMP readers and the animation compositor live in the
/// WICoderSupport target, in extensions of this namespace. Apps that only load images need none of it.
///
/// Thread safety: a namespace; each nested type states its own.
public enum ImageCoding {}
