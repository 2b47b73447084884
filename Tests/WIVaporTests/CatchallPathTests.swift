import Testing
@testable import WIVapor

/// What a thumbor catch-all route hands the service: the raw path after its prefix, empty segments kept.
struct CatchallPathTests {
    @Test(arguments: [
        ("/thumbs/unsafe/40x20/http://host/a.png", 5, "/unsafe/40x20/http://host/a.png"),
        ("/api//v1/thumbs/unsafe/http://host//a.png/", 4, "/unsafe/http://host//a.png/"),
        ("/unsafe/40x20/a%2Epng", 3, "/unsafe/40x20/a%2Epng"),
        ("/thumbs/unsafe", 1, "/unsafe"),
        ("/thumbs/unsafe", 0, "/thumbs/unsafe"),
        ("/thumbs/unsafe", 3, "/thumbs/unsafe"),
    ])
    func theSuffixAfterThePrefix(raw: String, count: Int, expected: String) {
        #expect(CatchallPath.suffix(of: raw, keepingLast: count) == expected)
    }
}
