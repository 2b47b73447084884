import Foundation

/// Sizes of the long-running tests: their CI size by default, larger when `make soak` sets the variable.
///
/// Thread safety: reads the process environment only; safe from any thread.
public enum Soak {
    /// The positive integer in environment variable `name`, or `fallback` when it is unset or not one.
    public static func count(_ name: String, default fallback: Int) -> Int {
        guard let text = ProcessInfo.processInfo.environment[name], let value = Int(text), value > 0 else {
            return fallback
        }
        return value
    }
}
