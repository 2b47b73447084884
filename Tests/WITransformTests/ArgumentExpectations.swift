import Testing
import WICore

/// Expects `make` to throw `.invalidArgument` (1009) with exactly `message`.
func expectInvalid<T>(
    _ message: String, _ make: () throws -> T,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    do {
        _ = try make()
        Issue.record("no error; expected \(message)", sourceLocation: sourceLocation)
    } catch {
        let error = try #require(error as? ImageError, sourceLocation: sourceLocation)
        #expect(error.code == .invalidArgument, sourceLocation: sourceLocation)
        #expect(error.message == message, sourceLocation: sourceLocation)
    }
}
