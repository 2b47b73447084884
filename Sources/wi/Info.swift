import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImage

/// `wi info FILE... [--json] [--dump-rgba DIR]`: decode files and describe them.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Decode image files and print what they hold.",
        discussion: """
            Prints a line per file (a JSON object per line with --json): format, size, frames, loop count, frame \
            durations and whether any pixel is transparent. Exit code 0 when every file decoded, 1 when any failed \
            (its error field says why), 2 on usage errors.

            Example:
              wi info photo.jpg anim.gif --json
              wi info anim.gif --dump-rgba frames/    # frames/anim.gif.0.rgba, frames/anim.gif.1.rgba, ...
            """
    )

    @Argument(help: "Image files to decode.")
    var files: [String]

    @Flag(help: "Print one JSON object per line.")
    var json = false

    @Option(
        name: .customLong("dump-rgba"),
        help: ArgumentHelp(
            "Write each frame as raw straight-alpha RGBA8 (width*height*4 bytes) to DIR/<file name>.<frame>.rgba.",
            valueName: "DIR"))
    var dumpRGBA: String?

    func run() throws {
        let coders = WebImage.makeCoders()
        // Every page of a TIFF is a frame here, as the reference decoders count them (Pillow's n_frames, libvips'
        // n-pages); the library's default decodes the first page of a document.
        coders.removeCoders { $0 is TIFFCoder }
        coders.addCoder(TIFFCoder(decodesAllPages: true))
        if let dumpRGBA {
            try FileManager.default.createDirectory(atPath: dumpRGBA, withIntermediateDirectories: true)
        }
        var failed = false
        for file in files {
            let report = inspect(file, coders: coders)
            if report.error != nil {
                failed = true
                writeToStandardError("wi info: \(file): \(report.error!)\n")
            }
            print(json ? report.jsonLine : report.textLine)
        }
        if failed { throw ExitCode(1) }
    }

    private func inspect(_ file: String, coders: ImageCodersManager) -> InfoReport {
        var report = InfoReport(file: file)
        guard let data = FileManager.default.contents(atPath: file) else {
            report.error = "cannot read the file"
            return report
        }
        let detected = ImageFormat.detect(data)
        if detected != .undefined { report.format = detected.identifier }
        do {
            let image = try coders.decode(data, options: DecodeOptions())
            report.describe(image)
            if let dumpRGBA { try dump(image, name: file.lastPathComponent, into: dumpRGBA) }
        } catch let error as ImageError {
            report.error = "\(error.code.rawValue): \(error.message)"
        } catch {
            report.error = "\(error)"
        }
        return report
    }

    private func dump(_ image: Image, name: String, into directory: String) throws {
        // One frame at a time: an animation decoded on demand never holds more than its frame buffer.
        for index in 0..<image.frameCount {
            let bytes = try image.frame(at: index).pixels.converted(to: .rgba8).packedBytes()
            let path = directory.appendingPath("\(name).\(index).rgba")
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                throw ImageError(.encodingFailed, "cannot write \(path)")
            }
        }
    }
}
