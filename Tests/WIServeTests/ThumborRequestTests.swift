import Testing
@testable import WIServe
@testable import WIServeCore

/// The URL grammar: every optional part, its order, the image URL's forms, and the 400s and 404s.
@Suite struct ThumborRequestTests {
    @Test func everyPartInOrder() throws {
        let request = try ThumborRequest.parse(
            path:
                "/unsafe/1x2:30x40/fit-in/-300x-0/right/bottom/smart/filters:quality(50):no_upscale()/http://a.example/b.png"
        )
        #expect(request.signature == "unsafe")
        #expect(
            request.signedPath
                == "1x2:30x40/fit-in/-300x-0/right/bottom/smart/filters:quality(50):no_upscale()/http://a.example/b.png"
        )
        #expect(request.crop == .init(left: 1, top: 2, right: 30, bottom: 40))
        #expect(request.fitIn)
        #expect(request.width == .pixels(300) && request.height == .pixels(0))
        #expect(request.flipHorizontally && request.flipVertically)
        #expect(request.horizontalAlignment == .right && request.verticalAlignment == .bottom)
        #expect(request.smart)
        #expect(request.filters == [F.Quality(50), F.NoUpscale()])
        #expect(request.imageURL == "http://a.example/b.png")
    }

    @Test func imageURLForms() throws {
        #expect(try ThumborRequest.parse(path: "/unsafe/a.example/b.jpg").imageURL == "http://a.example/b.jpg")
        #expect(try ThumborRequest.parse(path: "/unsafe/https://a.example/b.jpg").imageURL == "https://a.example/b.jpg")
        #expect(
            try ThumborRequest.parse(path: "/unsafe/http%3A%2F%2Fa.example%2Fb%20c.jpg").imageURL
                == "http://a.example/b c.jpg")
        // A segment that only looks like an option after the image started belongs to the URL.
        #expect(
            try ThumborRequest.parse(path: "/unsafe/a.example/fit-in/300x200/x.jpg").imageURL
                == "http://a.example/fit-in/300x200/x.jpg")
    }

    @Test func sizesWithOrigAndFreeSides() throws {
        let orig = try ThumborRequest.parse(path: "/unsafe/origx100/a.example/b.jpg")
        #expect(orig.width == .original && orig.height == .pixels(100))
        let free = try ThumborRequest.parse(path: "/unsafe/x100/a.example/b.jpg")
        #expect(free.width == .pixels(0) && free.height == .pixels(100))
        let flipOnly = try ThumborRequest.parse(path: "/unsafe/-x/a.example/b.jpg")
        #expect(flipOnly.flipHorizontally && !flipOnly.flipVertically && flipOnly.width == .pixels(0))
    }

    @Test func partsOutOfOrderStartTheImageURL() throws {
        // fit-in after the size is not an option any more: it is the first segment of the image URL.
        let request = try ThumborRequest.parse(path: "/unsafe/300x200/fit-in/a.example/b.jpg")
        #expect(!request.fitIn)
        #expect(request.imageURL == "http://fit-in/a.example/b.jpg")
    }

    @Test func errors() throws {
        #expect(throws: ServeError(.notFound, "no such route")) { try ThumborRequest.parse(path: "/") }
        #expect(throws: ServeError(.notFound, "no such route")) { try ThumborRequest.parse(path: "/favicon.ico") }
        #expect(throws: ServeError(.badRequest, "the URL names no image")) {
            try ThumborRequest.parse(path: "/unsafe/300x200/")
        }
        #expect(throws: ServeError(.badRequest, "size 99999999x1 is out of range (at most 1048576)")) {
            try ThumborRequest.parse(path: "/unsafe/99999999x1/a.example/b.jpg")
        }
        #expect(throws: ServeError(.badRequest, "unknown filter 'sepia'")) {
            try ThumborRequest.parse(path: "/unsafe/filters:sepia()/a.example/b.jpg", strict: true)
        }
        // thumbor's way (the default): the unknown filter is skipped.
        #expect(
            try ThumborRequest.parse(path: "/unsafe/filters:sepia():quality(5)/a.example/b.jpg").filters == [
                F.Quality(5)
            ])
    }

    @Test func lenientFilterListCutAtEachClosingColon() throws {
        // Each piece but the last lost its `)` to the cut at `):`; a skipped piece is named with it. Leading spaces
        // of arguments go; a piece still inside a bracket at its end is skipped.
        let request = try ThumborRequest.parse(
            path: "/unsafe/filters:sepia(1, 2):quality( 7):curve([(0,0):brightness(x):quality(9)/a.example/b.jpg")
        #expect(request.filters == [F.Quality(7), F.Quality(9)])
        #expect(request.skippedFilters == ["sepia(1, 2)", "curve([(0,0)", "brightness(x)"])
        #expect(request.imageURL == "http://a.example/b.jpg")
        // A scheme in any case is kept as written; none gets http://.
        #expect(try ThumborRequest.parse(path: "/unsafe/HTTPS://a.example/b.jpg").imageURL == "HTTPS://a.example/b.jpg")
        #expect(try ThumborRequest.parse(path: "/unsafe/Http://a.example/b.jpg").imageURL == "Http://a.example/b.jpg")
        #expect(try ThumborRequest.parse(path: "/unsafe/httpx/b.jpg").imageURL == "http://httpx/b.jpg")
    }
}
