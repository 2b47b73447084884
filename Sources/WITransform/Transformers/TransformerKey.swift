/// How transformer keys spell their parameters, so that equal parameters always give equal keys.
enum TransformerKey {
    /// Whole numbers without a fraction ("45"), others in Swift's shortest round-tripping form ("0.5").
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    /// `Name(p1,p2,...)`.
    static func make(_ name: String, _ parameters: [String]) -> String {
        name + "(" + parameters.joined(separator: ",") + ")"
    }
}
