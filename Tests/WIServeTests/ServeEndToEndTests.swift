import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WebImage
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// Every crop, filter and format through the whole service against a loopback origin, with exact sizes and
/// pixels (PNG) or colours within a tolerance (lossy formats).
@Suite(.serialized) struct ServeEndToEndTests {
    typealias H = ServeHarness

    @Test func fillCropByAlignment() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { _, client in
            for (alignment, left, right) in [
                ("left/", H.red, H.green), ("", H.green, H.green), ("right/", H.green, H.blue),
            ] {
                let response = try await client.execute(
                    uri: "/unsafe/100x100/\(alignment)\(h.url("/stripes.png"))", method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                let image = try H.image(response)
                #expect(image.size == PixelSize(width: 100, height: 100))
                #expect(image.pixels.color(x: 2, y: 50) == left, "\(alignment)")
                #expect(image.pixels.color(x: 97, y: 50) == right, "\(alignment)")
            }
        }
    }

    @Test func manualCropFlipAndFreeSide() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { _, client in
            // 50x0:150x100 is 50 columns of red, 50 of green; flipped horizontally, green comes first.
            let cropped = try await h.stripes(client, "50x0:150x100/")
            #expect(cropped.size == PixelSize(width: 100, height: 100))
            #expect(cropped.pixels.color(x: 10, y: 10) == H.red && cropped.pixels.color(x: 90, y: 10) == H.green)
            let flipped = try await h.stripes(client, "50x0:150x100/-0x0/")
            #expect(flipped.pixels.color(x: 10, y: 10) == H.green && flipped.pixels.color(x: 90, y: 10) == H.red)
            let free = try await h.stripes(client, "200x0/")
            #expect(free.size == PixelSize(width: 200, height: 100))
        }
    }

    @Test func fitInWithFillAndNoUpscale() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { _, client in
            let fit = try await h.stripes(client, "fit-in/300x300/")
            #expect(fit.size == PixelSize(width: 300, height: 150))
            let filled = try await h.stripes(client, "fit-in/300x300/filters:fill(ff00ff)/")
            #expect(filled.size == PixelSize(width: 300, height: 300))
            #expect(filled.pixels.color(x: 150, y: 10) == RGBAColor(red: 255, green: 0, blue: 255))  // the bar
            #expect(filled.pixels.color(x: 150, y: 150) == H.green)  // the image
            // As thumbor: fit-in keeps a source that fits the box; upscale() enlarges it; with fill() the box is
            // filled around the kept image (upscale() after fill() has nothing left to do).
            let kept = try await h.stripes(client, "fit-in/800x800/")
            #expect(kept.size == PixelSize(width: 400, height: 200))
            let upscaled = try await h.stripes(client, "fit-in/800x800/filters:upscale()/")
            #expect(upscaled.size == PixelSize(width: 800, height: 400))
            let framed = try await h.stripes(client, "fit-in/800x800/filters:fill(ff00ff):upscale()/")
            #expect(framed.size == PixelSize(width: 800, height: 800))
            #expect(framed.pixels.color(x: 205, y: 400) == H.red && framed.pixels.color(x: 195, y: 400) != H.red)
            let enlarged = try await h.stripes(client, "fit-in/800x800/filters:upscale():fill(ff00ff)/")
            #expect(enlarged.pixels.color(x: 5, y: 400) == H.red)
            let half = try await h.stripes(client, "filters:proportion(0.5)/")
            #expect(half.size == PixelSize(width: 200, height: 100))
            let stretched = try await h.stripes(client, "100x100/filters:stretch()/")
            #expect(stretched.size == PixelSize(width: 100, height: 100))
            #expect(stretched.pixels.color(x: 5, y: 50) == H.red && stretched.pixels.color(x: 95, y: 50) == H.blue)
        }
    }

    @Test func pixelFilters() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { _, client in
            // rotate(90) turns counter-clockwise: the red left edge becomes the bottom edge.
            let rotated = try await h.stripes(client, "filters:rotate(90)/")
            #expect(rotated.size == PixelSize(width: 200, height: 400))
            #expect(rotated.pixels.color(x: 100, y: 390) == H.red && rotated.pixels.color(x: 100, y: 10) == H.blue)
            // blur mixes across the red/green edge at x = 100 and leaves the middle of a stripe alone.
            let blurred = try await h.stripes(client, "filters:blur(4)/")
            let edge = blurred.pixels.color(x: 100, y: 100)
            #expect(edge.red > 40 && edge.green > 40)
            // thumbor truncates each pass to 8 bits: a flat 255 comes out 253, as in thumbor; opaque stays opaque.
            #expect(blurred.pixels.color(x: 200, y: 100) == RGBAColor(red: 0, green: 253, blue: 0))
            // round_corner paints the corners in the colour, or leaves them transparent.
            let painted = try await h.stripes(client, "filters:round_corner(30,255,255,255)/")
            #expect(painted.pixels.color(x: 0, y: 0) == .white && painted.pixels.color(x: 200, y: 100) == H.green)
            let clear = try await h.stripes(client, "filters:round_corner(30,255,255,255,1)/")
            #expect(clear.pixels.color(x: 0, y: 0).alpha == 0 && clear.pixels.color(x: 399, y: 199).alpha == 0)
        }
    }

    @Test func colourFiltersAndMaxAge() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { _, client in
            // Pillow's luma of pure red and green: (255 x 19595 + 0x8000) >> 16 = 76, (255 x 38470 + 0x8000) >> 16 = 150.
            let gray = try await h.stripes(client, "filters:grayscale()/")
            #expect(gray.pixels.color(x: 50, y: 50) == RGBAColor(red: 76, green: 76, blue: 76))
            #expect(gray.pixels.color(x: 200, y: 50) == RGBAColor(red: 150, green: 150, blue: 150))
            // In URL order: brightness(-40) takes 102 off, then rgb(0,0,40) adds 102 to blue alone.
            let shifted = try await h.stripes(client, "filters:brightness(-40):rgb(0,0,40)/")
            #expect(shifted.pixels.color(x: 50, y: 50) == RGBAColor(red: 153, green: 0, blue: 102))
            #expect(shifted.pixels.color(x: 350, y: 50) == RGBAColor(red: 0, green: 0, blue: 255))
            let flat = try await h.stripes(client, "filters:contrast(-100)/")
            #expect(flat.pixels.color(x: 200, y: 50) == RGBAColor(red: 128, green: 128, blue: 128))
            let path = "/unsafe/100x100/filters:max_age(60)/\(h.url("/stripes.png"))"
            let first = try await client.execute(uri: path, method: .get)
            #expect(first.headers[.cacheControl] == "max-age=60,public")
            let again = try await client.execute(uri: path, method: .get)  // from the variant cache
            #expect(again.headers[.cacheControl] == "max-age=60,public")
            let etag = try #require(first.headers[.eTag])
            let notModified = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag])
            #expect(notModified.status == .notModified)
            #expect(notModified.headers[.cacheControl] == "max-age=60,public")
        }
    }

    @Test func watermarkFromTheOrigin() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { _, client in
            // The stripes over themselves at 25% of the width (100 x 50: red 0..<25, green 25..<75, blue 75..<100),
            // at the top left: opaque, so the watermark's own colours.
            let mark = h.url("/stripes.png")
            let marked = try await h.stripes(client, "filters:watermark(\(mark),0,0,0,25,none)/")
            #expect(marked.size == PixelSize(width: 400, height: 200))
            #expect(marked.pixels.color(x: 10, y: 10) == H.red && marked.pixels.color(x: 50, y: 10) == H.green)
            #expect(marked.pixels.color(x: 90, y: 40) == H.blue && marked.pixels.color(x: 90, y: 60) == H.red)
            // At the bottom right (x 300..<400, y 150..<200, all blue below), alpha lowered by 50% of 255 to 128:
            // red and green over blue keep (1 - 127 / 255) x 255 = 128 of their colour and 127 of the blue.
            let corner = try await h.stripes(client, "filters:watermark('\(mark)',-0,-0,50,25,none)/")
            #expect(corner.pixels.color(x: 390, y: 190) == H.blue)
            #expect(corner.pixels.color(x: 310, y: 160) == RGBAColor(red: 128, green: 0, blue: 127))
            #expect(corner.pixels.color(x: 350, y: 160) == RGBAColor(red: 0, green: 128, blue: 127))
            #expect(corner.pixels.color(x: 299, y: 160) == H.green && corner.pixels.color(x: 350, y: 149) == H.blue)
            let missing = try await client.execute(
                uri: "/unsafe/filters:watermark(\(h.url("/missing.png")),0,0,0)/\(mark)", method: .get)
            #expect(missing.status == .badRequest)
            #expect(H.text(missing).hasPrefix("watermark \(h.url("/missing.png")): "))
            let notImage = try await client.execute(
                uri: "/unsafe/filters:watermark(\(h.url("/text")),0,0,0)/\(mark)",
                method: .get)
            #expect(notImage.status == .unsupportedMediaType)
        }
    }

    @Test func qualityChangesTheJPEGSize() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { _, client in
            let low = try await client.execute(uri: "/unsafe/filters:quality(5)/\(h.url("/exif.jpg"))", method: .get)
            let high = try await client.execute(uri: "/unsafe/filters:quality(95)/\(h.url("/exif.jpg"))", method: .get)
            #expect(low.headers[.contentType] == "image/jpeg" && high.headers[.contentType] == "image/jpeg")
            #expect(H.data(low).count * 2 < H.data(high).count)
            // max_bytes(): the answer at quality 80 is larger than asked, so a lower quality's answer comes back.
            let full = H.data(try await client.execute(uri: "/unsafe/\(h.url("/exif.jpg"))", method: .get)).count
            let limit = full * 3 / 4
            let fitted = H.data(
                try await client.execute(
                    uri: "/unsafe/filters:max_bytes(\(limit))/\(h.url("/exif.jpg"))",
                    method: .get))
            #expect(fitted.count <= limit && fitted.count > H.data(low).count)
        }
    }

    @Test func stripEXIFAndICC() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { _, client in
            let exifMarker = Data("Exif\0\0".utf8)
            // The EXIF goes by default (ServeMetadataTests has the rest), and after strip_exif().
            let plain = H.data(try await client.execute(uri: "/unsafe/100x0/\(h.url("/exif.jpg"))", method: .get))
            let stripped = H.data(
                try await client.execute(uri: "/unsafe/100x0/filters:strip_exif()/\(h.url("/exif.jpg"))", method: .get))
            #expect(plain.range(of: exifMarker) == nil && !plain.isEmpty)
            #expect(stripped.range(of: exifMarker) == nil && !stripped.isEmpty)
            // Answers are sRGB: the profile was applied at decode, so neither strip_exif() nor strip_icc() finds one.
            let iccMarker = Data("ICC_PROFILE\0".utf8)
            let converted = H.data(
                try await client.execute(uri: "/unsafe/filters:strip_exif()/\(h.url("/icc.jpg"))", method: .get))
            let bare = H.data(
                try await client.execute(uri: "/unsafe/filters:strip_icc()/\(h.url("/icc.jpg"))", method: .get))
            #expect(converted.range(of: iccMarker) == nil && !converted.isEmpty)
            #expect(bare.range(of: iccMarker) == nil && !bare.isEmpty)
        }
    }

    @Test(arguments: [
        ("jpeg", ImageFormat.jpeg), ("png", .png), ("webp", .webp), ("avif", .avif), ("gif", .gif), ("heic", .heic),
    ])
    func everyFormat(name: String, format: ImageFormat) async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { _, client in
            let response = try await client.execute(
                uri: "/unsafe/200x100/filters:format(\(name))/\(h.url("/stripes.png"))", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == format.mimeType)
            let data = H.data(response)
            #expect(ImageFormat.detect(data) == (format == .heic ? ImageFormat.heic : format))
            let image = try H.coders.decode(data, options: DecodeOptions())
            #expect(image.size == PixelSize(width: 200, height: 100))
            #expect(image.pixels.color(x: 100, y: 50).isClose(to: H.green), "\(name)")
        }
    }

    @Test func animationsStayAnimated() async throws {
        let h = try await ServeHarness()
        let source = try H.coders.decode(
            try Data(contentsOf: Fixtures.url("gif/animated-red-blue.gif")), options: DecodeOptions())
        try await h.withServer(H.configuration { $0.autoWebP = true }) { _, client in
            let gif = try await client.execute(uri: "/unsafe/10x10/\(h.url("/anim.gif"))", method: .get)
            #expect(gif.headers[.contentType] == "image/gif")
            let frames = try H.image(gif)
            #expect(frames.frameCount == source.frameCount && frames.frameCount > 1)
            #expect(frames.size == PixelSize(width: 10, height: 10))
            // thumbor keeps an animated GIF a GIF under AUTO_WEBP, and says no Vary (ServeNegotiationTests).
            let accepting = try await client.execute(
                uri: "/unsafe/10x10/\(h.url("/anim.gif"))", method: .get,
                headers: [.accept: "image/webp,*/*"])
            #expect(accepting.headers[.contentType] == "image/gif" && accepting.headers[.vary] == nil)
            #expect(try H.image(accepting).frameCount == source.frameCount)
            // Asked for by name, an animated WebP keeps every frame.
            let webp = try await client.execute(
                uri: "/unsafe/10x10/filters:format(webp)/\(h.url("/anim.gif"))", method: .get)
            #expect(webp.headers[.contentType] == "image/webp")
            #expect(try H.image(webp).frameCount == source.frameCount)
        }
    }

    @Test func autoFormatsFollowAccept() async throws {
        let h = try await ServeHarness()
        try await h.withServer(
            H.configuration {
                $0.autoWebP = true
                $0.autoAVIF = true
            }
        ) { _, client in
            let path = "/unsafe/100x100/\(h.url("/stripes.jpg"))"
            let plain = try await client.execute(uri: path, method: .get)
            #expect(plain.headers[.contentType] == "image/jpeg")
            #expect(plain.headers[.vary] == "Accept")
            let webp = try await client.execute(uri: path, method: .get, headers: [.accept: "image/webp,*/*;q=0.8"])
            #expect(webp.headers[.contentType] == "image/webp")
            // thumbor's order: WebP before AVIF when both are on and accepted; AVIF when only it is accepted.
            let both = try await client.execute(
                uri: path, method: .get, headers: [.accept: "image/avif,image/webp,*/*"])
            #expect(both.headers[.contentType] == "image/webp")
            let avif = try await client.execute(uri: path, method: .get, headers: [.accept: "image/avif,*/*"])
            #expect(avif.headers[.contentType] == "image/avif")
            let refused = try await client.execute(uri: path, method: .get, headers: [.accept: "image/webp;q=0"])
            #expect(refused.headers[.contentType] == "image/jpeg")
            // format() wins over Accept.
            let named = try await client.execute(
                uri: "/unsafe/100x100/filters:format(png)/\(h.url("/stripes.jpg"))",
                method: .get, headers: [.accept: "image/avif,image/webp"])
            #expect(named.headers[.contentType] == "image/png")
            #expect(named.headers[.vary] == nil)  // the URL named the format: Accept changes nothing
        }
        let plain = try await ServeHarness()
        try await plain.withServer(H.configuration()) { _, client in
            let response = try await client.execute(
                uri: "/unsafe/100x100/\(plain.url("/stripes.jpg"))", method: .get,
                headers: [.accept: "image/webp"])
            #expect(response.headers[.vary] == nil)
        }
    }

    /// PNG answers are deflated at libdeflate's level 5 (thumbor's zlib 6 in bytes), not the coder's default 6: the
    /// answer is exactly what `PNGCoder(compressionLevel: 5)` makes of its pixels, and not what level 6 makes.
    @Test func pngAnswersUseLevelFive() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { _, client in
            let answer = try await client.execute(
                uri: "/unsafe/300x200/filters:format(png)/\(h.url("/photo.jpg"))", method: .get)
            #expect(answer.status == .ok)
            let bytes = H.data(answer)
            let image = try H.image(answer)
            #expect(image.size == PixelSize(width: 300, height: 200))
            let five = try PNGCoder(compressionLevel: 5).encode(image, as: .png, options: .init())
            let six = try PNGCoder().encode(image, as: .png, options: .init())
            #expect(bytes == five)
            #expect(bytes != six)
        }
    }

    @Test func validatorsHeadAndCaching() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { _, client in
            let path = "/unsafe/100x100/\(h.url("/stripes.png"))"
            let get = try await client.execute(uri: path, method: .get)
            let etag = try #require(get.headers[.eTag])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count == 29)
            #expect(get.headers[.cacheControl] == "max-age=86400,public")
            #expect(get.headers[.contentLength] == String(get.body.readableBytes))
            let again = try await client.execute(uri: path, method: .get)
            #expect(again.headers[.eTag] == etag)
            let notModified = try await client.execute(
                uri: path, method: .get, headers: [.ifNoneMatch: "\"other\", \(etag)"])
            #expect(notModified.status == .notModified)
            #expect(notModified.body.readableBytes == 0)
            #expect(notModified.headers[.eTag] == etag)
            let changed = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: "\"other\""])
            #expect(changed.status == .ok)
            let head = try await client.execute(uri: path, method: .head)
            #expect(head.status == .ok)
            #expect(head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == String(get.body.readableBytes))
            #expect(head.headers[.eTag] == etag)
            let post = try await client.execute(uri: path, method: .post)
            #expect(post.status == .methodNotAllowed)
        }
    }

    /// A bad or missing signature and an unsafe URL that is not allowed: thumbor's 400 (its handler's answer to
    /// each), or 403 with `--strict`; the reason is the same.
    @Test func signaturesAndUnsafe() async throws {
        let h = try await ServeHarness()
        let signedPath = "100x100/\(h.url("/stripes.png"))"
        let signature = ThumborSignature(key: "k").sign(signedPath)
        for strict in [false, true] {
            let refused: HTTPResponse.Status = strict ? .forbidden : .badRequest
            try await h.withServer(
                H.configuration {
                    $0.allowUnsafe = false
                    $0.strict = strict
                }, keepOrigin: true
            ) { _, client in
                #expect(try await client.execute(uri: "/\(signature)/\(signedPath)", method: .get).status == .ok)
                let bad = try await client.execute(
                    uri: "/\(ThumborSignature(key: "other").sign(signedPath))/\(signedPath)", method: .get)
                #expect(bad.status == refused)
                #expect(H.text(bad) == "bad signature\n")
                let unsafe = try await client.execute(uri: "/unsafe/\(signedPath)", method: .get)
                #expect(unsafe.status == refused)
                #expect(H.text(unsafe) == "unsafe URLs are not allowed (start with --allow-unsafe)\n")
                // The signature covers the whole path: changing the size breaks it.
                let tampered = try await client.execute(
                    uri: "/\(signature)/200x100/\(h.url("/stripes.png"))", method: .get)
                #expect(tampered.status == refused)
            }
            try await h.withServer(
                H.configuration {
                    $0.key = nil
                    $0.strict = strict
                }, keepOrigin: !strict
            ) { _, client in
                let response = try await client.execute(uri: "/\(signature)/\(signedPath)", method: .get)
                #expect(response.status == refused)
                #expect(H.text(response) == "signed URLs need a key (start with --key)\n")
            }
        }
    }

    @Test func errorStatuses() async throws {
        let h = try await ServeHarness()
        // --strict: a filter thumbor would skip is a 400 naming it (the default's answers: ServeLenientFilterTests).
        try await h.withServer(
            H.configuration {
                $0.maxSourceBytes = 2000
                $0.maxPixels = 100_000
                $0.strict = true
            }
        ) { _, client in
            let notFound = try await client.execute(uri: "/unsafe/\(h.url("/missing"))", method: .get)
            #expect(notFound.status == .notFound)
            // The reason is public; the pipeline's own description goes to the log only.
            #expect(H.text(notFound) == "the source was not found (the origin answered 404)\n")
            #expect(try await client.execute(uri: "/", method: .get).status == .notFound)
            let unknown = try await client.execute(
                uri: "/unsafe/filters:sepia()/\(h.url("/stripes.png"))", method: .get)
            #expect(unknown.status == .badRequest)
            #expect(H.text(unknown) == "unknown filter 'sepia'\n")
            #expect(unknown.headers[.contentType] == "text/plain; charset=utf-8")
            let badArgument = try await client.execute(
                uri: "/unsafe/filters:quality(101)/\(h.url("/stripes.png"))", method: .get)
            #expect(badArgument.status == .badRequest)
            let tooBig = try await client.execute(uri: "/unsafe/\(h.url("/exif.jpg"))", method: .get)
            #expect(tooBig.status == .contentTooLarge)
            #expect(H.text(tooBig) == "the source is larger than the service accepts\n")
            let tooLargeBox = try await client.execute(uri: "/unsafe/1000x1000/\(h.url("/stripes.png"))", method: .get)
            #expect(tooLargeBox.status == .badRequest)
            #expect(H.text(tooLargeBox) == "1000x1000 exceeds the pixel limit of 100000\n")
            let notImage = try await client.execute(uri: "/unsafe/\(h.url("/text"))", method: .get)
            #expect(notImage.status == .unsupportedMediaType)
            let scheme = try await client.execute(uri: "/unsafe/ftp://127.0.0.1/a.png", method: .get)
            #expect(scheme.status == .badRequest)
        }
        // The pixel limit refuses a source before decoding it (400x200 = 80,000 pixels > 50,000): thumbor's 400
        // (its engine cannot load it), 413 with --strict.
        let limited = try await ServeHarness()
        for strict in [false, true] {
            try await limited.withServer(
                H.configuration {
                    $0.maxPixels = 50_000
                    $0.strict = strict
                }, keepOrigin: !strict
            ) { _, client in
                let response = try await client.execute(
                    uri: "/unsafe/10x10/\(limited.url("/stripes.png"))", method: .get)
                #expect(response.status == (strict ? .contentTooLarge : .badRequest))
                #expect(H.text(response) == "PNG: image exceeds the pixel limit\n")
            }
        }
    }

    @Test func ssrfRefusals() async throws {
        let h = try await ServeHarness()
        // Without --allow-host the loopback origin is refused.
        try await h.withServer(H.configuration { $0.allowedHosts = [] }) { _, client in
            let response = try await client.execute(uri: "/unsafe/\(h.url("/stripes.png"))", method: .get)
            #expect(response.status == .forbidden)
            #expect(H.text(response) == "the source's address is not allowed\n")
            #expect(h.origin.requestCount("/stripes.png") == 0)
            let metadata = try await client.execute(
                uri: "/unsafe/http://169.254.169.254/latest/meta-data", method: .get)
            #expect(metadata.status == .forbidden)
        }
        // An allowed host still cannot redirect to a refused address.
        let allowed = try await ServeHarness()
        try await allowed.withServer(H.configuration()) { _, client in
            let response = try await client.execute(uri: "/unsafe/\(allowed.url("/redirect-metadata"))", method: .get)
            #expect(response.status == .forbidden)
            #expect(H.text(response) == "the source's address is not allowed\n")
            // A name that is not the allowed host goes through the strict loader even when it resolves to loopback.
            let other = try await client.execute(
                uri: "/unsafe/http://localhost:\(allowed.origin.port)/stripes.png", method: .get)
            #expect(other.status == .forbidden)
        }
    }

    /// thumbor's HEALTHCHECK_ROUTE, which load balancers set up for thumbor probe: `WORKING`, not cached, and
    /// answered while the admission gate is full (it is not an image request).
    @Test func thumborsHealthcheck() async throws {
        let h = try await ServeHarness()
        try await h.withServer(
            H.configuration {
                $0.concurrency = 1
                $0.queue = 0
            }
        ) { server, client in
            async let held = client.execute(uri: "/unsafe/10x10/\(h.url("/gated.png"))", method: .get)
            for await _ in h.arrivals { break }
            try await AdmissionGateTests.wait(server.service.gate, for: (0, 0), yielded: 1)  // in flight: full
            for path in ["/healthcheck", "/healthcheck/"] {
                let get = try await client.execute(uri: path, method: .get)
                #expect(
                    get.status == .ok && H.text(get) == "WORKING" && get.headers[.cacheControl] == "no-cache", "\(path)"
                )
            }
            let head = try await client.execute(uri: "/healthcheck", method: .head)
            #expect(head.status == .ok && head.body.readableBytes == 0)
            h.gate.open()
            #expect(try await held.status == .ok)
        }
    }

    @Test func healthAndMetrics() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { _, client in
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok && H.text(health) == "ok\n")
            _ = try await client.execute(uri: "/unsafe/10x10/\(h.url("/stripes.png"))", method: .get)
            _ = try await client.execute(uri: "/unsafe/10x10/\(h.url("/stripes.png"))", method: .get)
            _ = try await client.execute(uri: "/unsafe/\(h.url("/missing"))", method: .get)
            let metrics = H.text(try await client.execute(uri: "/metrics", method: .get))
            #expect(metrics.contains("webimage_serve_requests_total{status=\"200\"} 3"))  // healthz and the two images
            #expect(metrics.contains("webimage_serve_requests_total{status=\"404\"} 1"))
            #expect(metrics.contains("webimage_serve_request_duration_seconds_count{status=\"200\"} 3"))
            #expect(metrics.contains("webimage_loads_total{result=\"success\"} 2"))
            #expect(metrics.contains("webimage_loads_total{result=\"failure\"} 1"))
        }
    }
}
