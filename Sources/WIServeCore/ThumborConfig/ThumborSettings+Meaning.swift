import WICore

/// The one table from a thumbor setting to its meaning here: a flag, `wi serve`'s own behaviour already, a
/// difference in answers, or nothing that matters (each checked against thumbor 7.8's `thumbor/config.py` and the
/// code that reads the setting).
extension ThumborSettings {
    typealias Assignment = ThumborConfigFile.Assignment
    typealias Problem = ThumborConfigError.Problem

    enum Meaning: Equatable {
        /// The flag and its values.
        case flag(String, [String], [Source])
        /// The flag, and how answers still differ from thumbor's.
        case flagDiffering(String, [String], [Source], String)
        /// What `wi serve` does anyway: nothing to tell.
        case same
        /// Not implemented; answers are the same without it.
        case ignored
        /// Not implemented; answers differ, as the reason says.
        case differs(String)
    }

    static func meaning(of setting: Assignment, in file: ThumborConfigFile, home: String?) throws(Problem) -> Meaning {
        let value = setting.value
        let source = [Source(setting.name, line: setting.line)]
        func flag(_ name: String, _ values: [String]) -> Meaning { .flag(name, values, source) }
        func same(when condition: Bool, else reason: String) -> Meaning { condition ? .same : .differs(reason) }
        switch setting.name {
        case "SECURITY_KEY":
            if value == .none { return .same }
            return try flag("key", [string(setting)])
        case "ALLOW_UNSAFE_URL": return flag("allow-unsafe", ["\(value.isTrue)"])
        case "AUTO_WEBP": return flag("auto-webp", ["\(value.isTrue)"])
        case "AUTO_AVIF": return flag("auto-avif", ["\(value.isTrue)"])
        case "PRESERVE_EXIF_INFO": return flag("keep-metadata", ["\(value.isTrue)"])
        case "PRESERVE_EXIF_COPYRIGHT_INFO": return flag("keep-copyright", ["\(value.isTrue)"])
        case "MAX_AGE":
            let seconds = try integer(setting)
            guard seconds >= 0 else {
                throw Problem(line: setting.line, "MAX_AGE must be 0 or more seconds, got \(seconds)")
            }
            return flag("max-age", ["\(seconds)"])
        case "MAX_PIXELS":
            let pixels = try maxPixels(setting)
            return flag("max-pixels", ["\(pixels)"])
        case "HTTP_LOADER_REQUEST_TIMEOUT":
            // Tornado's default when None; 0 would be no limit, which the origin fetch always has here.
            if value == .none { return flag("origin-timeout", ["20.0"]) }
            let seconds = try number(setting)
            guard seconds > 0 else {
                throw Problem(
                    line: setting.line,
                    "HTTP_LOADER_REQUEST_TIMEOUT \(value) is no limit; wi serve's "
                        + "origin-timeout must be in (0, 86400] seconds")
            }
            return flag("origin-timeout", ["\(seconds)"])
        case "ALLOWED_SOURCES":
            return try flag("allow-source", allowedSources(setting))
        case "HTTP_LOADER_PROXY_HOST", "HTTP_LOADER_PROXY_PORT":
            return try proxy(in: file)
        case "LOADER":
            return try loader(setting, in: file, home: home)
        case "FILE_LOADER_ROOT_PATH":
            return .same  // read with LOADER: thumbor's http_loader never reads it
        case "RESPECT_ORIENTATION":
            return same(
                when: value.isTrue, else: "thumbor leaves EXIF-rotated images unrotated; wi serve turns them upright")
        case "HEALTHCHECK_ROUTE":
            return same(
                when: [.string("/healthcheck"), .string("/healthcheck/"), .string("/healthcheck/?")].contains(value),
                else: "the health check answers at /healthcheck, not \(value)")
        case "MAX_AGE_TEMP_IMAGE":
            return .same  // for images whose smart detection failed; the attention crop never fails
        case "QUALITY":
            let quality = try integer(setting)
            return flag("quality", ["\(quality)"])
        case "WEBP_QUALITY", "AVIF_QUALITY":
            if value == .none { return .same }
            let quality = try integer(setting)
            let name = setting.name == "WEBP_QUALITY" ? "webp-quality" : "avif-quality"
            guard quality == 100, setting.name == "WEBP_QUALITY" else { return flag(name, ["\(quality)"]) }
            return .flagDiffering(
                name, ["100"], source, "thumbor encodes WebP losslessly at 100; here it is lossy at quality 100")
        case "ENGINE":
            return same(
                when: value == .string("thumbor.engines.pil"),
                else: "images are decoded and transformed by wi serve's own coders, not \(value)")
        case "GIF_ENGINE":
            return same(
                when: value == .string("thumbor.engines.gif"),
                else: "GIFs are decoded and transformed by wi serve's own coders, not \(value)")
        case "STORAGE":
            return same(
                when: [.string("thumbor.storages.file_storage"), .string("thumbor.storages.no_storage")].contains(
                    value),
                else: "sources are kept in wi serve's own caches, never read from \(value)")
        case "RESULT_STORAGE":
            return same(
                when: [
                    .none, .string("thumbor.result_storages.file_storage"),
                    .string("thumbor.result_storages.no_storage"),
                ].contains(value),
                else: "answers are kept in wi serve's own variant cache, never read from \(value)")
        case "URL_SIGNER":
            return same(
                when: value == .string("libthumbor.url_signers.base64_hmac_sha1"),
                else: "signatures are checked as URL-safe base64 HMAC-SHA1, not by \(value)")
        case "DETECTORS":
            return same(when: !value.isTrue, else: "smart/ crops by the attention crop, not by these detectors")
        case "OPTIMIZERS":
            return same(when: !value.isTrue, else: "answers are not passed through these optimizers")
        case "FILTERS":
            return try filters(setting)
        case "ALLOW_ANIMATED_GIFS":
            return same(when: value.isTrue, else: "animated sources stay animated")
        case "AUTO_JPG": return flag("auto-jpg", ["\(value.isTrue)"])
        case "AUTO_PNG": return flag("auto-png", ["\(value.isTrue)"])
        case "AUTO_HEIF": return flag("auto-heif", ["\(value.isTrue)"])
        case "AUTO_PNG_TO_JPG": return flag("auto-png-to-jpg", ["\(value.isTrue)"])
        case "PROGRESSIVE_JPEG": return flag("progressive-jpeg", ["\(value.isTrue)"])
        case "ACCESS_CONTROL_ALLOW_ORIGIN_HEADER":
            // thumbor sends the header for any value but False (None too, as the text "None").
            if value == .bool(false) { return .same }
            if value == .none { return flag("access-control-allow-origin", ["None"]) }
            return try flag("access-control-allow-origin", [string(setting)])
        case "MAX_WIDTH", "MAX_HEIGHT":
            if !value.isTrue { return .same }  // 0 or None: no maximum, as thumbor
            let side = try integer(setting)
            return flag(setting.name == "MAX_WIDTH" ? "max-width" : "max-height", ["\(side)"])
        case "ENABLE_ETAGS": return value.isTrue ? .same : flag("no-etags", ["true"])
        case "SVG_DPI": return flag("svg-dpi", ["\(try number(setting))"])
        case "USE_BLACKLIST":
            return same(when: !value.isTrue, else: "there is no /blacklist")
        case "UPLOAD_ENABLED":
            return same(when: !value.isTrue, else: "there is no /image upload endpoint")
        case "HTTP_LOADER_VALIDATE_CERTS":
            return same(when: value == .none || value.isTrue, else: "origin certificates are always verified")
        case "HTTP_LOADER_FOLLOW_REDIRECTS":
            return same(
                when: value.isTrue, else: "origin redirects are followed (each hop checked by the address policy)")
        default:
            return .ignored
        }
    }

    // MARK: Settings read together

    /// HTTP_LOADER_PROXY_HOST and _PORT: thumbor uses a proxy only when both are set.
    private static func proxy(in file: ThumborConfigFile) throws(Problem) -> Meaning {
        guard let host = file.last("HTTP_LOADER_PROXY_HOST"), host.value.isTrue,
            let port = file.last("HTTP_LOADER_PROXY_PORT"), port.value.isTrue
        else { return .same }
        let name = try string(host)
        let number = try integer(port)
        guard (1...65535).contains(number) else {
            throw Problem(line: port.line, "HTTP_LOADER_PROXY_PORT must be in 1...65535, got \(number)")
        }
        return .flag(
            "proxy", ["http://\(name.contains(":") ? "[\(name)]" : name):\(number)"],
            [Source(host.name, line: host.line), Source(port.name, line: port.line)])
    }

    /// LOADER, with FILE_LOADER_ROOT_PATH for thumbor's file loaders.
    private static func loader(_ setting: Assignment, in file: ThumborConfigFile, home: String?) throws(Problem)
        -> Meaning
    {
        let module = try string(setting)
        switch module {
        case "thumbor.loaders.http_loader":
            return .same
        case "thumbor.loaders.file_loader", "thumbor.loaders.file_loader_http_fallback":
            let root = file.last("FILE_LOADER_ROOT_PATH")
            guard let folder = try root.map(string) ?? home else {
                throw Problem(
                    line: setting.line, "\(module) needs FILE_LOADER_ROOT_PATH (thumbor's default, HOME, is not set)")
            }
            var sources = [Source(setting.name, line: setting.line)]
            if let root { sources.append(Source(root.name, line: root.line)) }
            return .flagDiffering(
                "file-root", [folder], sources,
                module == "thumbor.loaders.file_loader"
                    ? "http:// and https:// sources are still fetched; thumbor's file_loader reads files only"
                    : "a path that is no file under the root is a 404, not fetched over HTTP as thumbor's fallback does"
            )
        default:
            return .differs("sources are fetched over HTTP(S), or from --file-root, not by \(module)")
        }
    }

    // MARK: Values

    /// ALLOWED_SOURCES: a list or tuple, each entry converted (ThumborAllowedSources).
    private static func allowedSources(_ setting: Assignment) throws(Problem) -> [String] {
        if setting.value == .none { return [] }
        guard let entries = setting.value.items else {
            throw Problem(line: setting.line, "ALLOWED_SOURCES must be a list, got \(setting.value.typeName)")
        }
        var patterns: [String] = []
        for entry in entries {
            do {
                patterns += try ThumborAllowedSources.patterns(for: entry)
            } catch {
                throw Problem(line: setting.line, "ALLOWED_SOURCES: \(error.message)")
            }
        }
        var seen: Set<String> = []
        return patterns.filter { seen.insert($0).inserted }
    }

    /// FILTERS: the same set of filters as `wi serve`'s, or the filters either side lacks.
    private static func filters(_ setting: Assignment) throws(Problem) -> Meaning {
        guard let entries = setting.value.items else {
            throw Problem(line: setting.line, "FILTERS must be a list, got \(setting.value.typeName)")
        }
        var named: [String] = []
        for entry in entries {
            guard case .string(let module) = entry else {
                throw Problem(line: setting.line, "FILTERS entries must be module names, got \(entry)")
            }
            named.append(
                module.hasPrefix("thumbor.filters.") ? String(module.dropFirst("thumbor.filters.".count)) : module)
        }
        let ours = ThumborFilters.all.map { $0.name }
        let missing = named.filter { !ours.contains($0) }
        let extra = ours.filter { !named.contains($0) }
        var reasons: [String] = []
        if !missing.isEmpty { reasons.append("not available here: " + missing.joined(separator: ", ")) }
        if !extra.isEmpty {
            reasons.append("applied here though FILTERS leaves them out: " + extra.joined(separator: ", "))
        }
        return reasons.isEmpty ? .same : .differs(reasons.joined(separator: "; "))
    }

    /// MAX_PIXELS: Pillow's limit. None is none (here the most `--max-pixels` takes); 0 leaves Pillow's default.
    private static func maxPixels(_ setting: Assignment) throws(Problem) -> Int {
        if setting.value == .none { return DecodeOptions.defaultPixelLimit }
        let pixels = try integer(setting, truncating: true)
        if pixels == 0 { return pillowDefaultPixels }
        guard (1...DecodeOptions.defaultPixelLimit).contains(pixels) else {
            throw Problem(
                line: setting.line,
                "MAX_PIXELS must be in 1...\(DecodeOptions.defaultPixelLimit) here, got \(setting.value)")
        }
        return pixels
    }

    /// Pillow's `Image.MAX_IMAGE_PIXELS` when thumbor leaves it alone.
    static let pillowDefaultPixels = 89_478_485

    static func string(_ setting: Assignment) throws(Problem) -> String {
        guard case .string(let text) = setting.value else {
            throw Problem(
                line: setting.line, "\(setting.name) must be a str, got \(setting.value.typeName) \(setting.value)")
        }
        return text
    }

    /// An int (True is 1), or a float with no fraction (`75e6`); `truncating` takes any float's integer part, as
    /// Python's `int()`.
    static func integer(_ setting: Assignment, truncating: Bool = false) throws(Problem) -> Int {
        switch setting.value {
        case .int(let value): return value
        case .bool(let value): return value ? 1 : 0
        case .float(let value) where (truncating || value == value.rounded()) && abs(value) < 9.0e18:
            return Int(value)
        default:
            throw Problem(
                line: setting.line, "\(setting.name) must be an int, got \(setting.value.typeName) \(setting.value)")
        }
    }

    static func number(_ setting: Assignment) throws(Problem) -> Double {
        switch setting.value {
        case .int(let value): return Double(value)
        case .float(let value): return value
        default:
            throw Problem(
                line: setting.line, "\(setting.name) must be a number, got \(setting.value.typeName) \(setting.value)")
        }
    }
}
