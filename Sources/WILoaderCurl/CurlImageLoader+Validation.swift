import WICore

extension CurlImageLoader.Configuration {
    /// The longest timeout or delay accepted, in seconds: one day.
    public static let maximumSeconds: Double = 24 * 3600

    /// Throws `.invalidArgument` when a value is out of range, naming it: `maxConcurrentTransfers` outside 1...1024,
    /// `connectTimeout` or `totalTimeout` not a finite number in 0.001...`maximumSeconds`, `lowSpeedLimit` or
    /// `lowSpeedTime` negative or above `Int32.max`, `progressInterval` not in 0...`maximumSeconds`,
    /// `maximumRedirects` outside 0...100, a negative `maximumBodySize` or `resumeDataBudget`, or a retry policy
    /// with `maximumRetries` outside 0...100 or delays not in 0...`maximumSeconds`.
    ///
    /// `CurlImageLoader.init(configuration:)` calls it. Thread safety: a pure function of the value.
    public func validate() throws(ImageError) {
        let seconds = 0.001...Self.maximumSeconds
        try ArgumentCheck.within(maxConcurrentTransfers, 1...1024, "maxConcurrentTransfers")
        try ArgumentCheck.within(connectTimeout, seconds, "connectTimeout")
        if let totalTimeout { try ArgumentCheck.within(totalTimeout, seconds, "totalTimeout") }
        try ArgumentCheck.within(lowSpeedLimit, 0...Int(Int32.max), "lowSpeedLimit")
        try ArgumentCheck.within(lowSpeedTime, 0...Int(Int32.max), "lowSpeedTime")
        try ArgumentCheck.within(progressInterval, 0...Self.maximumSeconds, "progressInterval")
        try ArgumentCheck.within(maximumRedirects, 0...100, "maximumRedirects")
        guard maximumBodySize >= 0 else {
            throw ArgumentCheck.invalid("maximumBodySize", "be >= 0", String(maximumBodySize))
        }
        guard resumeDataBudget >= 0 else {
            throw ArgumentCheck.invalid("resumeDataBudget", "be >= 0", String(resumeDataBudget))
        }
        try ArgumentCheck.within(retryPolicy.maximumRetries, 0...100, "retryPolicy.maximumRetries")
        try ArgumentCheck.within(retryPolicy.initialDelay, 0...Self.maximumSeconds, "retryPolicy.initialDelay")
        try ArgumentCheck.within(retryPolicy.maximumDelay, 0...Self.maximumSeconds, "retryPolicy.maximumDelay")
    }
}
