import WIHash

/// SHA-256 digests of decoded pixels, to compare with committed reference digests: `SHA256.hex(pixels)`.
///
/// The hash itself is WIHash's (tested against the FIPS 180 vectors there); this is the test-support face of it
/// that plugin tests outside the package can call.
///
/// Thread safety: pure functions; safe from any thread.
public enum SHA256 {
    /// The lowercase hex digest of `bytes` (64 characters).
    public static func hex(_ bytes: some Collection<UInt8>) -> String { Hex.string(WIHash.SHA256.digest(bytes)) }

    /// The 32-byte digest of `bytes`.
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] { WIHash.SHA256.digest(bytes) }
}
