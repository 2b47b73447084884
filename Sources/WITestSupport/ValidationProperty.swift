import WICore

/// For property tests of the checks on caller values: compares what a check did with the test's own prediction.
///
/// Thread safety: a pure function; call it from any thread.
public enum ValidationProperty {
    /// nil when `check` accepted a `valid` value, or refused an invalid one with exactly `.invalidArgument`;
    /// otherwise one line saying what went wrong.
    public static func mismatch(valid: Bool, _ check: () throws(ImageError) -> Void) -> String? {
        do {
            try check()
            return valid ? nil : "accepted a value predicted invalid"
        } catch {
            if valid { return "refused a value predicted valid: \(error)" }
            return error.code == .invalidArgument ? nil : "refused with \(error.code), not 1009: \(error)"
        }
    }
}
