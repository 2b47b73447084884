import Testing
@testable import WIServeCore

/// Each thumbor setting `wi serve` implements sets its flag with thumbor's meaning; the others are told in one
/// warning; ALLOWED_SOURCES converts only where the meaning is the same.
@Suite struct ThumborSettingsTests {
    func settings(_ text: String, home: String? = nil) throws -> ThumborSettings {
        try ThumborSettings(ThumborConfigFile(text: text, path: "thumbor.conf"), home: home)
    }

    func refusal(_ text: String) -> String {
        do {
            _ = try settings(text)
            Issue.record("accepted: \(text)")
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test func eachSupportedSettingSetsItsFlag() throws {
        let cases: [(String, String, [String])] = [
            ("SECURITY_KEY = 'MY_SECURE_KEY'", "key", ["MY_SECURE_KEY"]),
            ("ALLOW_UNSAFE_URL = True", "allow-unsafe", ["true"]),
            ("ALLOW_UNSAFE_URL = 0", "allow-unsafe", ["false"]),
            ("AUTO_WEBP = True", "auto-webp", ["true"]),
            ("AUTO_AVIF = 1", "auto-avif", ["true"]),
            ("AUTO_JPG = True", "auto-jpg", ["true"]),
            ("AUTO_PNG = True", "auto-png", ["true"]),
            ("AUTO_HEIF = True", "auto-heif", ["true"]),
            ("AUTO_PNG_TO_JPG = False", "auto-png-to-jpg", ["false"]),
            ("PROGRESSIVE_JPEG = True", "progressive-jpeg", ["true"]),
            ("ENABLE_ETAGS = False", "no-etags", ["true"]),
            ("MAX_WIDTH = 150", "max-width", ["150"]),
            ("MAX_HEIGHT = 1.5e2", "max-height", ["150"]),
            ("SVG_DPI = 72", "svg-dpi", ["72.0"]),
            ("ACCESS_CONTROL_ALLOW_ORIGIN_HEADER = '*'", "access-control-allow-origin", ["*"]),
            ("PRESERVE_EXIF_INFO = True", "keep-metadata", ["true"]),
            ("PRESERVE_EXIF_COPYRIGHT_INFO = False", "keep-copyright", ["false"]),
            ("MAX_AGE = 24 * 60 * 60", "max-age", ["86400"]),
            ("MAX_AGE = 3600.0", "max-age", ["3600"]),
            ("MAX_AGE = 0", "max-age", ["0"]),
            ("MAX_PIXELS = 75e6", "max-pixels", ["75000000"]),
            ("MAX_PIXELS = 1234.9", "max-pixels", ["1234"]),
            ("MAX_PIXELS = None", "max-pixels", ["268435456"]),
            ("MAX_PIXELS = 0", "max-pixels", ["89478485"]),
            ("HTTP_LOADER_REQUEST_TIMEOUT = 20", "origin-timeout", ["20.0"]),
            ("HTTP_LOADER_REQUEST_TIMEOUT = 2.5", "origin-timeout", ["2.5"]),
            ("HTTP_LOADER_REQUEST_TIMEOUT = None", "origin-timeout", ["20.0"]),
            (
                "HTTP_LOADER_PROXY_HOST = 'proxy.internal'\nHTTP_LOADER_PROXY_PORT = 3128", "proxy",
                ["http://proxy.internal:3128"]
            ),
            ("HTTP_LOADER_PROXY_PORT = 8080\nHTTP_LOADER_PROXY_HOST = '::1'", "proxy", ["http://[::1]:8080"]),
            (
                "LOADER = 'thumbor.loaders.file_loader'\nFILE_LOADER_ROOT_PATH = '/srv/images'", "file-root",
                ["/srv/images"]
            ),
            ("LOADER = 'thumbor.loaders.file_loader_http_fallback'", "file-root", ["/home/thumbor"]),
            ("ALLOWED_SOURCES = ['a.example', 'B.example']", "allow-source", ["a.example", "B.example"]),
            ("ALLOWED_SOURCES = []", "allow-source", []),
            ("QUALITY = 90", "quality", ["90"]),
            ("QUALITY = 80", "quality", ["80"]),
            ("WEBP_QUALITY = 85", "webp-quality", ["85"]),
            ("AVIF_QUALITY = 50.0", "avif-quality", ["50"]),
        ]
        for (text, flag, values) in cases {
            let found = try settings(text, home: "/home/thumbor").settings
            #expect(found.map(\.flag) == [flag], "\(text)")
            #expect(found.first?.values == values, "\(text)")
        }
    }

    @Test func settingsThatAreWiServesBehaviourSetNothing() throws {
        let found = try settings(
            """
            FILE_LOADER_ROOT_PATH = '/srv/images'
            HTTP_LOADER_PROXY_HOST = 'proxy.internal'
            LOADER = 'thumbor.loaders.http_loader'
            ENGINE = 'thumbor.engines.pil'
            GIF_ENGINE = 'thumbor.engines.gif'
            STORAGE = 'thumbor.storages.file_storage'
            RESULT_STORAGE = None
            URL_SIGNER = 'libthumbor.url_signers.base64_hmac_sha1'
            RESPECT_ORIENTATION = True
            HEALTHCHECK_ROUTE = r'/healthcheck/?'
            MAX_AGE_TEMP_IMAGE = 0
            WEBP_QUALITY = None
            AVIF_QUALITY = None
            DETECTORS = []
            OPTIMIZERS = []
            ALLOW_ANIMATED_GIFS = True
            ACCESS_CONTROL_ALLOW_ORIGIN_HEADER = False
            MAX_WIDTH = 0
            MAX_HEIGHT = None
            ENABLE_ETAGS = True
            HTTP_LOADER_VALIDATE_CERTS = None
            HTTP_LOADER_FOLLOW_REDIRECTS = True
            SECURITY_KEY = None
            """)
        // The root path is only read by thumbor's file loaders; a proxy host without a port is no proxy in thumbor.
        #expect(found.settings.isEmpty && found.ignored.isEmpty && found.differences.isEmpty)
        #expect(found.warning == nil)
    }

    @Test func whereEachSettingComesFrom() throws {
        let found = try settings("SECURITY_KEY = 'k'\nHTTP_LOADER_PROXY_HOST = 'p'\n\nHTTP_LOADER_PROXY_PORT = 1\n")
        #expect(
            found.settings.map { found.origin(of: $0) } == [
                "thumbor thumbor.conf:1 SECURITY_KEY",
                "thumbor thumbor.conf:2 HTTP_LOADER_PROXY_HOST, thumbor.conf:4 HTTP_LOADER_PROXY_PORT",
            ])
    }

    @Test func theOneWarningNamesWhatIsIgnoredAndWhatChangesAnswers() throws {
        let found = try settings(
            """
            STATSD_HOST = 'statsd.internal'
            THUMBOR_LOG_FORMAT = '%(message)s'
            RESPECT_ORIENTATION = False
            LOADER = 'thumbor_aws.loader'
            DETECTORS = ['thumbor.detectors.face_detector']
            WEBP_QUALITY = 100
            ENGINE_THREADPOOL_SIZE = 4
            UPLOAD_ENABLED = True
            """)
        #expect(found.ignored == ["STATSD_HOST", "THUMBOR_LOG_FORMAT", "ENGINE_THREADPOOL_SIZE"])
        #expect(
            found.warning == "thumbor settings in thumbor.conf that wi serve does not implement. "
                + "Ignored, answers the same: STATSD_HOST, THUMBOR_LOG_FORMAT, ENGINE_THREADPOOL_SIZE. "
                + "Answers differ from thumbor's: "
                + "RESPECT_ORIENTATION (thumbor leaves EXIF-rotated images unrotated; wi serve turns them upright); "
                + "LOADER (sources are fetched over HTTP(S), or from --file-root, not by thumbor_aws.loader); "
                + "DETECTORS (smart/ crops by the attention crop, not by these detectors); "
                + "WEBP_QUALITY (thumbor encodes WebP losslessly at 100; here it is lossy at quality 100); "
                + "UPLOAD_ENABLED (there is no /image upload endpoint)")
    }

    @Test func theFileLoadersSetTheRootAndSayHowAnswersDiffer() throws {
        let only = try settings("LOADER = 'thumbor.loaders.file_loader'\nFILE_LOADER_ROOT_PATH = '/srv'\n")
        #expect(
            only.differences == [
                .init(
                    "LOADER", "http:// and https:// sources are still fetched; thumbor's file_loader reads files only")
            ])
        let fallback = try settings(
            "LOADER = 'thumbor.loaders.file_loader_http_fallback'\nFILE_LOADER_ROOT_PATH = '/srv'\n")
        #expect(
            fallback.differences == [
                .init(
                    "LOADER",
                    "a path that is no file under the root is a 404, not fetched over HTTP as thumbor's fallback does")
            ])
        #expect(
            refusal("LOADER = 'thumbor.loaders.file_loader'")
                == "thumbor.conf:1: thumbor.loaders.file_loader needs FILE_LOADER_ROOT_PATH (thumbor's default, HOME, is not set)"
        )
    }

    @Test func filtersAreComparedWithWiServesOwn() throws {
        let ours = ThumborFilters.all.map { $0.name }
        let list = (ours.filter { $0 != "blur" } + ["redeye"]).map { "'thumbor.filters.\($0)'" }
        let found = try settings("FILTERS = [\(list.joined(separator: ", "))]")
        #expect(
            found.differences == [
                .init(
                    "FILTERS", "not available here: redeye; applied here though FILTERS leaves them out: blur")
            ])
        let same = try settings("FILTERS = (\(ours.map { "'thumbor.filters.\($0)'" }.joined(separator: ", ")))")
        #expect(same.differences.isEmpty && same.warning == nil)
    }

    @Test func allowedSourcesConvertWhereTheMeaningIsTheSame() throws {
        func patterns(_ entries: String) throws -> [String] {
            try settings("import re\nALLOWED_SOURCES = [\(entries)]").settings.first?.values ?? []
        }
        #expect(try patterns("'images.example.com'") == ["images.example.com"])
        #expect(try patterns(#"'.*\.example\.com'"#) == ["*.example.com"])
        #expect(try patterns(#"'.+\.example\.com'"#) == ["*.example.com"])
        #expect(try patterns(#"r'(.*\.)?example\.com'"#) == ["*.example.com", "example.com"])
        #expect(
            try patterns(#"'^(www|img2?)\.example\.com$'"#) == [
                "www.example.com", "img2.example.com", "img.example.com",
            ])
        #expect(
            try patterns(#"re.compile(r'https?://cdn\.example\.com/img/')"#) == [
                "https://cdn.example.com/img/", "http://cdn.example.com/img/",
            ])
        #expect(try patterns(#"re.compile(r'https://cdn\.example\.com/.*')"#) == ["https://cdn.example.com/"])
        #expect(
            try patterns(#"'a.example', re.compile(r'https://b\.example/'), 'a.example'"#) == [
                "a.example", "https://b.example/",
            ])
    }

    @Test func allowedSourcesWithoutAnEquivalentAreRefusedByName() {
        let tail = "has no equivalent in wi serve's patterns (a host with * for any characters, or a URL prefix)"
        #expect(
            refusal(#"ALLOWED_SOURCES = [r'cdn[0-9]+\.example\.com']"#)
                == #"thumbor.conf:1: ALLOWED_SOURCES: 'cdn[0-9]+\.example\.com': '[' "# + tail)
        #expect(
            refusal("ALLOWED_SOURCES = ['.*.example.com']")
                == #"thumbor.conf:1: ALLOWED_SOURCES: '.*.example.com': '.' (any one character; write \. for a dot) "#
                + tail)
        #expect(
            refusal(#"ALLOWED_SOURCES = [r'\d+\.example\.com']"#)
                == #"thumbor.conf:1: ALLOWED_SOURCES: '\d+\.example\.com': '\d' "# + tail)
        #expect(
            refusal("ALLOWED_SOURCES = ['http://example.com/']")
                == "thumbor.conf:1: ALLOWED_SOURCES: 'http://example.com/' is compared with the source's host name whole, and "
                + "no host name is written so: thumbor never matches it (write the host alone, e.g. 'images.example.com')"
        )
        #expect(
            refusal("import re\nALLOWED_SOURCES = [re.compile(r'cdn\\.example\\.com')]")
                == #"thumbor.conf:2: ALLOWED_SOURCES: re.compile('cdn\.example\.com') is matched from the start of the source URL "#
                + "(http://... or https://...), so only a pattern that starts with one converts: 'cdn.example.com' does not"
        )
        #expect(
            refusal("import re\nALLOWED_SOURCES = [re.compile(r'https://.*\\.example\\.com/')]")
                == #"thumbor.conf:2: ALLOWED_SOURCES: re.compile('https://.*\.example\.com/'): a wildcard inside a URL "#
                + #"('https://*.example.com/') has no equivalent; wi serve's URL patterns are prefixes (for every host of a "#
                + #"domain write a host pattern: '.*\.example\.com')"#)
        #expect(refusal("ALLOWED_SOURCES = 'a.example'") == "thumbor.conf:1: ALLOWED_SOURCES must be a list, got str")
    }

    @Test func valuesOfTheWrongTypeAreRefusedWithTheirLines() {
        #expect(
            refusal(
                "\nSECURITY_KEY = 123\nMAX_AGE = '1'\nMAX_AGE_TEMP_IMAGE = 1\nMAX_PIXELS = 1e12\nHTTP_LOADER_REQUEST_TIMEOUT = 0\n"
            ) == """
                thumbor.conf:2: SECURITY_KEY must be a str, got int 123
                thumbor.conf:3: MAX_AGE must be an int, got str '1'
                thumbor.conf:5: MAX_PIXELS must be in 1...268435456 here, got 1000000000000.0
                thumbor.conf:6: HTTP_LOADER_REQUEST_TIMEOUT 0 is no limit; wi serve's origin-timeout must be in (0, 86400] seconds
                """)
    }
}
