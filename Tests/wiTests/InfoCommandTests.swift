import Foundation
import Testing
import WITestSupport

/// Runs the built `wi` binary, as other tools do, and checks the DESIGN.md contract byte for byte.
@Suite struct InfoCommandTests {
    let wi = CommandRunner.productPath("wi")

    @Test func jsonLineForAGoodFile() throws {
        let file = Fixtures.url("pngsuite/basn6a16.png").path
        let result = try CommandRunner.run(wi, ["info", file, "--json"])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                {"file":"\(file)","format":"png","width":32,"height":32,"frames":1,"loop_count":0,"durations_ms":[0],\
                "has_alpha":true,"error":null}\n
                """)
        #expect(result.stderr.isEmpty)
    }

    @Test func anyFailureExitsOneAndSaysWhy() throws {
        let good = Fixtures.url("pngsuite/basn0g01.png").path
        let corrupt = Fixtures.url("pngsuite/xcsn0g01.png").path
        let missing = Fixtures.url("does-not-exist.png").path
        let result = try CommandRunner.run(wi, ["info", good, corrupt, missing, "--json"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects[0]["error"] is NSNull)
        #expect(objects[0]["has_alpha"] as? Bool == false)
        #expect(objects[1]["format"] as? String == "png")
        #expect(objects[1]["width"] is NSNull)
        #expect(objects[1]["error"] as? String == "1001: PNG: IDAT: CRC error")
        #expect(objects[2]["error"] as? String == "cannot read the file")
        for object in objects {
            #expect(
                Set(object.keys) == [
                    "file", "format", "width", "height", "frames", "loop_count", "durations_ms",
                    "has_alpha", "error",
                ])
        }
        #expect(result.stderr.split(separator: "\n").count == 2)  // one readable line per failure
    }

    /// Issue 40's formats as the reference decoders see them: every TIFF page a frame (Pillow's n_frames, looping
    /// chains counted once), an SVG sized by its viewBox alone (rsvg-convert's size), a gzip-compressed SVG, and a
    /// gzip bomb refused with 1030.
    @Test func framesAndSizesAsTheReferencesSeeThem() throws {
        let files = [
            "tiff/pillow-multipage.tiff", "tiff/gen-ifd-loop-to-second.tif",
            "tiff/pillow-multipage_multiple_frame_loop.tiff", "tiff/emptyexiftag-3pages.tif",
            "svg/peers/sdwebimage-TestImage.svg", "svg/svgz/librsvg-gnome-cool.svgz", "svg/svgz/crafted-bomb.svgz",
        ]
        let result = try CommandRunner.run(wi, ["info", "--json"] + files.map { Fixtures.url($0).path })
        #expect(result.status == 1)  // the bomb
        let objects = try result.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        #expect(objects.map { $0["frames"] as? Int } == [3, 3, 2, 3, 1, 1, nil])
        #expect(objects.map { $0["format"] as? String } == ["tiff", "tiff", "tiff", "tiff", "svg", "svg", "svg"])
        #expect(objects.map { $0["width"] as? Int } == [10, 10, 10, 6, 131, 530, nil])
        #expect(objects.map { $0["height"] as? Int } == [10, 10, 10, 4, 76, 634, nil])
        #expect(objects[0]["durations_ms"] as? [Int] == [100, 100, 100])
        #expect((objects[6]["error"] as? String)?.hasPrefix("1030: ") == true)
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try CommandRunner.run(wi, ["info"]).status == 2)
        #expect(try CommandRunner.run(wi, ["info", "--no-such-flag", "x.png"]).status == 2)
        #expect(try CommandRunner.run(wi, ["no-such-command"]).status == 2)
        let help = try CommandRunner.run(wi, ["info", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("wi info photo.jpg anim.gif --json"))
    }

    @Test func dumpRGBAWritesStraightAlphaFrames() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wi-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CommandRunner.run(
            wi,
            [
                "info", Fixtures.url("pngsuite/tbrn2c08.png").path,
                "--dump-rgba", directory.path,
            ])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(Fixtures.url("pngsuite/tbrn2c08.png").path + "\tpng\t32x32"))
        let dumped = try Data(contentsOf: directory.appendingPathComponent("tbrn2c08.png.0.rgba"))
        #expect(dumped.count == 32 * 32 * 4)
        // The same digest refdecode.py gave (Tests/Fixtures/pngsuite-reference.tsv).
        let reference = String(decoding: Fixtures.data("pngsuite-reference.tsv"), as: UTF8.self)
            .split(separator: "\n").first { $0.hasPrefix("tbrn2c08.png\t") }!.split(separator: "\t")[3]
        #expect(SHA256.hex(dumped) == String(reference))
    }
}
