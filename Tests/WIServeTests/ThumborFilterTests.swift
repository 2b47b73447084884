import Testing
@testable import WIServe
@testable import WIServeCore
import WICore

/// Each filter's arguments: accepted forms and the one-line 400 for each bad one.
@Suite struct ThumborFilterTests {
    /// `--strict`'s parse: every bad filter a 400 (thumbor's lenient one: ThumborLenientFilterTests).
    func parse(_ text: String) throws(ServeError) -> [any ThumborFilter] {
        try ThumborFilters.parseList(Substring(text), strict: true)
    }

    @Test func acceptedForms() throws {
        #expect(try parse("quality(0):quality(100)") == [F.Quality(0), F.Quality(100)])
        #expect(
            try parse("format(JPG):format(png):format(webp):format(avif):format(gif):format(heic)")
                == [F.Format(.jpeg), F.Format(.png), F.Format(.webp), F.Format(.avif), F.Format(.gif), F.Format(.heic)])
        #expect(try parse("no_upscale()") == [F.NoUpscale()])
        #expect(try parse("blur(2):blur(4,2.5)") == [F.Blur(radius: 2, sigma: 0), F.Blur(radius: 4, sigma: 2.5)])
        #expect(try parse("rotate(90):rotate(-90):rotate(450)") == [F.Rotate(90), F.Rotate(270), F.Rotate(90)])
        #expect(
            try parse("round_corner(8,1,2,3):round_corner(8,1,2,3,1):round_corner(8|3,1,2,3)")
                == [
                    F.RoundCorner(radius: 8, color: RGBAColor(red: 1, green: 2, blue: 3), transparent: false),
                    F.RoundCorner(radius: 8, color: RGBAColor(red: 1, green: 2, blue: 3), transparent: true),
                    F.RoundCorner(
                        radius: 8, verticalRadius: 3, color: RGBAColor(red: 1, green: 2, blue: 3), transparent: false),
                ])
        #expect(
            try parse("fill(ff8000):fill(#0f0):fill(white):fill(transparent)")
                == [
                    F.Fill(RGBAColor(red: 255, green: 128, blue: 0)), F.Fill(RGBAColor(red: 0, green: 255, blue: 0)),
                    F.Fill(.white), F.Fill(.clear),
                ])
        #expect(try parse("strip_exif():strip_icc()") == [F.StripEXIF(), F.StripICC()])
        #expect(
            try parse("background_color(blue):background_color(0a0)")
                == [
                    F.BackgroundColor(RGBAColor(red: 0, green: 0, blue: 255)),
                    F.BackgroundColor(RGBAColor(red: 0, green: 170, blue: 0)),
                ])
        #expect(
            try parse("brightness(-100):brightness(150):contrast(25)")
                == [F.Brightness(-100), F.Brightness(150), F.Contrast(25)])
        #expect(
            try parse("rgb(10,-20,30):saturation(0.5):saturation(-1):grayscale()")
                == [F.RGB(red: 10, green: -20, blue: 30), F.Saturation(0.5), F.Saturation(-1), F.Grayscale()])
        #expect(try parse("max_age(0):max_age(60)") == [F.MaxAge(0), F.MaxAge(60)])
        #expect(try parse("max_bytes(20000)") == [F.MaxBytes(20_000)])
        #expect(try parse("noise(40):noise(40,7)") == [F.Noise(amount: 40, seed: 0), F.Noise(amount: 40, seed: 7)])
        #expect(
            try parse("curve([(0,0),(255,255)],[(0,50),],[(10,0),(250,252)],[(0,48)])")
                == [
                    F.Curve(
                        all: [ThumborCurvePoint(x: 0, y: 0), ThumborCurvePoint(x: 255, y: 255)],
                        red: [ThumborCurvePoint(x: 0, y: 50)],
                        green: [ThumborCurvePoint(x: 10, y: 0), ThumborCurvePoint(x: 250, y: 252)],
                        blue: [ThumborCurvePoint(x: 0, y: 48)])
                ])
        #expect(
            try parse("colorize(10,20,300,ff8000)")
                == [F.Colorize(red: 10, green: 20, blue: 300, fill: RGBAColor(red: 255, green: 128, blue: 0))])
        #expect(
            try parse("upscale():stretch():proportion(0.5):proportion(1)")
                == [F.Upscale(), F.Stretch(), F.Proportion(0.5), F.Proportion(1)])
        #expect(
            try parse("focal(10x20:30x40)") == [
                F.Focal(ThumborRequest.CropBox(left: 10, top: 20, right: 30, bottom: 40))
            ])
        #expect(
            try parse("convolution(1;2;1,3):convolution(-1;0.5;-1,1,false)")
                == [
                    F.Convolution(weights: [1, 2, 1], columns: 3, normalize: true),
                    F.Convolution(weights: [-1, 0.5, -1], columns: 1, normalize: false),
                ])
        #expect(
            try parse("sharpen(2,1,true):sharpen(0.5,1.5,False)")
                == [
                    F.Sharpen(amount: 2, radius: 1, luminanceOnly: true),
                    F.Sharpen(amount: 0.5, radius: 1.5, luminanceOnly: false),
                ])
    }

    @Test func watermarkForms() throws {
        let marks = try parse(
            "watermark(example.com/a.png,10,-0,40):watermark('https://x.org/b.png',10p,-5p,0,30):"
                + "watermark(c.png,center,repeat,100,none,25)"
        ).map { (filter: any ThumborFilter) -> ThumborWatermark? in
            (filter as? F.Watermark)?.mark
        }
        #expect(
            marks == [
                ThumborWatermark(
                    url: "http://example.com/a.png", x: .pixels(10, fromEnd: false), y: .pixels(0, fromEnd: true),
                    transparency: 40),
                ThumborWatermark(
                    url: "https://x.org/b.png", x: .percent(10, fromEnd: false), y: .percent(5, fromEnd: true),
                    transparency: 0, widthRatio: 30),
                ThumborWatermark(url: "http://c.png", x: .center, y: .tiled, transparency: 100, heightRatio: 25),
            ])
        #expect("\(try #require(marks[1]))" == "watermark(https://x.org/b.png,10p,-5p,0,30,none)")
        // A ratio of 0 is thumbor's "no limit".
        #expect(
            try parse("watermark(a.png,0,0,0,0,0)") == [
                F.Watermark(
                    ThumborWatermark(
                        url: "http://a.png", x: .pixels(0, fromEnd: false), y: .pixels(0, fromEnd: false),
                        transparency: 0))
            ])
        let four = Array(repeating: "watermark(a.png,0,0,0)", count: 4).joined(separator: ":")
        #expect(try parse(four).count == 4)
        #expect(throws: ServeError(.badRequest, "at most 4 watermark() filters per request")) {
            try parse(four + ":watermark(a.png,0,0,0)")
        }
    }

    /// thumbor's way (the default): a filter it skips is left out, a value it clamps is clamped, and the list is
    /// cut at each `):` with text after a closing parenthesis ignored.
    @Test func lenientListsSkipAndClampAsThumbor() throws {
        func lenient(_ text: String) -> [any ThumborFilter] {
            (try? ThumborFilters.parseList(Substring(text), strict: false)) ?? [F.Quality(-1)]
        }
        #expect(
            lenient("blur(500):blur(200,3):blur(3,-2):blur(0)")
                == [
                    F.Blur(radius: 150, sigma: 500), F.Blur(radius: 150, sigma: 3), F.Blur(radius: 3, sigma: 2),
                    F.Blur(radius: 0, sigma: 0),
                ])
        #expect(lenient("rotate(181):rotate(3690):rotate(-450)") == [F.Rotate(90), F.Rotate(270)])
        #expect(lenient("format(asdf):format(PNG)") == [F.Format(nil), F.Format(.png)])
        #expect(lenient("proportion(10000):proportion(-1):focal():focal(abc):sepia():grayscale(1)").isEmpty)
        #expect(
            lenient("quality(101):brightness(5000):rgb(5000,-5000,0):max_age(999999999999):max_bytes(0)")
                == [
                    F.Quality(100), F.Brightness(1000), F.RGB(red: 1000, green: -1000, blue: 0),
                    F.MaxAge(F.MaxAge.maximum),
                ])
        #expect(lenient("quality(80)x:grayscale()") == [F.Quality(80)])
        // thumbor's PositiveNumber takes no sign: a negative quality is skipped, not clamped; nor does Number take "+".
        #expect(
            lenient(
                "quality(-5):rotate(+90):contrast(50000):colorize(2000000,0,5,ff8000):"
                    + "saturation(-30000000):saturation(1e3):noise(5000)")
                == [
                    F.Contrast(10_000),
                    F.Colorize(red: 1_000_000, green: 0, blue: 5, fill: RGBAColor(red: 255, green: 128, blue: 0)),
                    F.Saturation(-1_000_000), F.Noise(amount: 5000, seed: 0),
                ])
        #expect(
            lenient("rotate(99999999999999999990):blur(3,-4000)") == [F.Rotate(270), F.Blur(radius: 3, sigma: 4000)])
        #expect(lenient("blur(2):sepia():rotate(90)") == [F.Blur(radius: 2, sigma: 0), F.Rotate(90)])
        #expect(lenient("no_upscale(:strip_exif()").isEmpty)
        // The watermark limit is the service's own (each is a load): a 400 either way.
        #expect(throws: ServeError(.badRequest, "at most 4 watermark() filters per request")) {
            try ThumborFilters.parseList(
                Substring(Array(repeating: "watermark(a.png,0,0,0)", count: 5).joined(separator: ":")),
                strict: false)
        }
    }

    /// Every filter is in the one table under its thumbor name, once.
    @Test func theTableNamesEveryFilterOnce() {
        #expect(ThumborFilters.all.count == 32 && ThumborFilters.byName.count == 32)
        #expect(
            ThumborFilters.byName["round_corner"].map(ObjectIdentifier.init) == ObjectIdentifier(F.RoundCorner.self))
        #expect(Set(ThumborFilters.all.map { $0.name }).count == 32)
    }

    /// A filter's part of the transformer's key is the spelling the earlier enum of filters printed, so the
    /// cache's keys did not change with the table (`String(reflecting:)` is how Swift prints an enum's payload).
    /// `round_corner` changed it on purpose when its pixels became thumbor's (`roundCorner(8|8, ...)`): answers
    /// stored with the earlier corners are not served for the new ones.
    @Test func transformerKeysKeepTheirSpelling() throws {
        let request = try ThumborRequest.parse(
            path: "/unsafe/fit-in/10x20/filters:blur(3):rotate(-90):round_corner(8,1,2,3):"
                + "fill(ff8000):focal(10x20:30x40):proportion(0.5):quality(50):saturation(-1):"
                + "curve([(0,0),(255,255)],[(0,50)],[(10,0)],[(0,48)]):watermark(a.png,10p,-5p,0,30)/a.png")
        #expect(
            ThumborTransformer(request: request, pixelLimit: 100).key == "Thumbor(fit=10x20;align=center,middle;"
                + "blur(radius: 3, sigma: 0.0);rotate(270);roundCorner(8|8, color: #010203ff, transparent: false);"
                + "fill(#ff8000ff);focal(WIServeCore.ThumborRequest.CropBox(left: 10, top: 20, right: 30, bottom: 40));"
                + "proportion(0.5);saturation(-1.0);curve(all: [WIServeCore.ThumborCurvePoint(x: 0, y: 0), "
                + "WIServeCore.ThumborCurvePoint(x: 255, y: 255)], red: [WIServeCore.ThumborCurvePoint(x: 0, y: 50)], "
                + "green: [WIServeCore.ThumborCurvePoint(x: 10, y: 0)], blue: [WIServeCore.ThumborCurvePoint(x: 0, y: 48)]);"
                + "watermark(watermark(http://a.png,10p,-5p,0,30,none)))")
    }

    @Test func theLastMaxAgeWins() throws {
        let request = try ThumborRequest.parse(
            path: "/unsafe/filters:max_age(60):quality(50):max_age(5)/example.com/a.png")
        #expect(request.maxAge == 5)
        #expect(try ThumborRequest.parse(path: "/unsafe/filters:quality(50)/example.com/a.png").maxAge == nil)
    }

    @Test(arguments: [
        ("quality(101)", "quality() argument 1 must be an integer in 0...100, got '101'"),
        ("quality()", "quality() takes 1 argument(s), got 0"),
        ("quality(nan)", "quality() argument 1 must be an integer in 0...100, got 'nan'"),
        ("format(bmp)", "format() must be one of jpeg, png, webp, avif, gif, heic, got 'bmp'"),
        ("no_upscale(1)", "no_upscale() takes 0 argument(s), got 1"),
        ("blur(inf)", "blur() argument 1 must be an integer in 0...150, got 'inf'"),
        ("blur(151)", "blur() argument 1 must be an integer in 0...150, got '151'"),
        ("blur(2.5)", "blur() argument 1 must be an integer in 0...150, got '2.5'"),
        ("blur(2,-1)", "blur() argument 2 must be a number in 0.0...150.0, got '-1'"),
        ("rotate(45)", "rotate() takes a multiple of 90 degrees, got 45"),
        ("round_corner(8,1,2)", "round_corner() takes 4 to 5 argument(s), got 3"),
        ("round_corner(8,1,2,300)", "round_corner() argument 4 must be an integer in 0...255, got '300'"),
        (
            "round_corner(-1,1,2,3)",
            "round_corner() argument 1 must be a radius A or A|B, whole numbers in 0...1048576, got '-1'"
        ),
        (
            "round_corner(8.5,1,2,3)",
            "round_corner() argument 1 must be a radius A or A|B, whole numbers in 0...1048576, got '8.5'"
        ),
        (
            "round_corner(8|2|1,1,2,3)",
            "round_corner() argument 1 must be a radius A or A|B, whole numbers in 0...1048576, got '8|2|1'"
        ),
        ("fill(chartreuse-ish)", "fill() takes a colour name, RRGGBB, RGB or transparent, got 'chartreuse-ish'"),
        ("strip_exif(", "malformed filter strip_exif("),
        ("quality(80)x", "malformed filter list after quality()"),
        ("quality(80):", "malformed filter list: it ends with ':'"),
        ("brightness(1001)", "brightness() argument 1 must be an integer in -1000...1000, got '1001'"),
        ("brightness(2.5)", "brightness() argument 1 must be an integer in -1000...1000, got '2.5'"),
        ("contrast()", "contrast() takes 1 argument(s), got 0"),
        ("rgb(1,2)", "rgb() takes 3 argument(s), got 2"),
        ("rgb(1,2,-1001)", "rgb() argument 3 must be an integer in -1000...1000, got '-1001'"),
        ("saturation(nan)", "saturation() argument 1 must be a number in -100.0...100.0, got 'nan'"),
        ("saturation(101)", "saturation() argument 1 must be a number in -100.0...100.0, got '101'"),
        ("grayscale(1)", "grayscale() takes 0 argument(s), got 1"),
        ("max_age(-1)", "max_age() argument 1 must be an integer in 0...315360000, got '-1'"),
        ("watermark(a.png,0,0)", "watermark() takes 4 to 6 argument(s), got 3"),
        ("watermark(,0,0,0)", "watermark() argument 1 must be the image's URL"),
        (
            "watermark(a.png,left,0,0)",
            "watermark() argument 2 must be pixels, a percentage (Np), center or repeat, got 'left'"
        ),
        (
            "watermark(a.png,0,--1,0)",
            "watermark() argument 3 must be pixels, a percentage (Np), center or repeat, got '--1'"
        ),
        ("watermark(a.png,0,0,101)", "watermark() argument 4 must be an integer in 0...100, got '101'"),
        ("watermark(a.png,0,0,0,150)", "watermark() argument 5 must be a percentage in 0...100 or none, got '150'"),
        ("watermark(a.png,0,0,0,none,-5)", "watermark() argument 6 must be a percentage in 0...100 or none, got '-5'"),
        ("proportion(1.5)", "proportion() argument 1 must be a number in 0.0...1.0, got '1.5'"),
        ("upscale(2)", "upscale() takes 0 argument(s), got 1"),
        ("colorize(10,20,30,#ff8000)", "colorize() argument 4 must be a colour as RRGGBB, got '#ff8000'"),
        ("colorize(10,20,-30,ff8000)", "colorize() argument 3 must be an integer in 0...1000, got '-30'"),
        ("curve([(0,0)],[(0,0)],[(0,0)])", "curve() takes 4 argument(s), got 3"),
        (
            "curve([(0,0)],[],[(0,0)],[(0,0)])",
            "curve() argument 2 must be points [(x,y),...] with x rising from 0 to 255 and y in 0...255, got '[]'"
        ),
        (
            "curve([(0,0)],[(5,0),(5,9)],[(0,0)],[(0,0)])",
            "curve() argument 2 must be points [(x,y),...] with x rising from 0 to 255 and y in 0...255, got '[(5,0),(5,9)]'"
        ),
        (
            "curve([(0,0)],[(0,0)],[(0,0)],[(0,256)])",
            "curve() argument 4 must be points [(x,y),...] with x rising from 0 to 255 and y in 0...255, got '[(0,256)]'"
        ),
        ("curve([(0,0)],[(0,0)],[(0,0)],[(0,0)]", "malformed filter curve([(0,0)],[(0,0)],[(0,0)],[(0,0)]"),
        ("noise(-1)", "noise() argument 1 must be an integer in 0...1000, got '-1'"),
        ("max_bytes(0)", "max_bytes() argument 1 must be an integer in 1...1073741824, got '0'"),
        ("background_color(nope)", "background_color() takes a colour name, RRGGBB, RGB or transparent, got 'nope'"),
        ("focal(10x20)", "focal() takes a rectangle AxB:CxD, got '10x20'"),
        (
            "convolution(1;2;1;2,2)",
            "convolution() needs an odd number of columns and of rows, got 4 weights in rows of 2"
        ),
        (
            "convolution(1;2;1;2;1;2,3)",
            "convolution() needs an odd number of columns and of rows, got 6 weights in rows of 3"
        ),
        ("convolution(1;x;1,3)", "convolution() argument 1 must be at most 625 numbers separated by ';', got '1;x;1'"),
        ("convolution(1;;1,3)", "convolution() argument 1 must be at most 625 numbers separated by ';', got '1;;1'"),
        ("convolution(1;2;1,0)", "convolution() argument 2 must be an integer in 1...625, got '0'"),
        ("sharpen(2,1)", "sharpen() takes 3 argument(s), got 2"),
        ("sharpen(2,1,yes)", "sharpen() argument 3 must be true or false, got 'yes'"),
        ("sharpen(2,-1,true)", "sharpen() argument 2 must be a number in 0.0...100.0, got '-1'"),
        ("redeye()", "unknown filter 'redeye'"),
        ("frame(a.png,b.png)", "frame() takes 1 argument(s), got 2"),
        ("frame('')", "frame() argument 1 must be the frame image's URL"),
    ])
    func badArgumentIsA400WithOneLine(text: String, reason: String) {
        #expect(throws: ServeError(.badRequest, reason)) { try parse(text) }
    }
}

extension ThumborFilterTests {
    /// `cover()`: an animated GIF becomes its first frame, before the geometry (so the crop and resize see the
    /// still); an animated WebP and a GIF without `cover()` keep every frame.
    @Test func coverKeepsTheFirstFrameOfAnAnimatedGIF() throws {
        let colors: [RGBAColor] = [
            RGBAColor(red: 255, green: 0, blue: 0), RGBAColor(red: 0, green: 255, blue: 0),
            RGBAColor(red: 0, green: 0, blue: 255),
        ]
        func animation(_ format: ImageFormat) throws -> Image {
            let frames = try colors.map { color in
                var pixels = try PixelBuffer(width: 40, height: 20, format: .rgba8)
                try pixels.withUnsafeMutableBytes { bytes in
                    for index in stride(from: 0, to: bytes.count, by: 4) {
                        (bytes[index], bytes[index + 1], bytes[index + 2], bytes[index + 3]) =
                            (color.red, color.green, color.blue, 255)
                    }
                }
                return ImageFrame(pixels: pixels, duration: 0.1)
            }
            return Image(frames: frames, format: format)
        }
        func transformed(_ path: String, _ source: Image) throws -> Image {
            let request = try ThumborRequest.parse(path: "/unsafe/\(path)example.com/a.gif")
            return try ThumborTransformer(request: request, pixelLimit: 50_000_000).transform(source)
        }
        let still = try transformed("20x10/filters:cover()/", try animation(.gif))
        #expect(still.frameCount == 1 && still.size == PixelSize(width: 20, height: 10) && still.format == .gif)
        #expect(still.pixels.color(x: 5, y: 5) == colors[0])
        #expect(try transformed("20x10/filters:cover()/", try animation(.webp)).frameCount == 3)
        #expect(try transformed("20x10/", try animation(.gif)).frameCount == 3)
    }
}
