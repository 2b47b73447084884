/// The loader side of a load, nested here so that WICore's top level keeps the contracts an app meets first:
/// what a request carries (`HTTPRequest`, `Identity`, `Priority`, the modifiers and the decryptor), what a
/// loader reports (`Event`, `Progress`, `ResponseHead`, `Metrics`) and its operation handle (`Operation`).
///
/// Thread safety: a namespace; each nested type states its own.
public enum ImageLoading {}

/// What coder authors use beyond `ImageCoder`: EXIF reading, animation compositing and frame buffers, size rules,
/// the dependency-free resampler. Apps that only load images need none of it.
///
/// Thread safety: a namespace; each nested type states its own.
public enum ImageCoding {}
