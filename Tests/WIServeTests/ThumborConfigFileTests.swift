import Testing
@testable import WIServeCore

/// thumbor.conf read as Python reads it: every literal kind, arithmetic, continuation lines, and each refused line
/// named with its number.
@Suite struct ThumborConfigFileTests {
    func values(_ text: String) throws -> [String: ThumborConfigValue] {
        let file = try ThumborConfigFile(text: text, path: "thumbor.conf")
        return Dictionary(file.assignments.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    func problems(_ text: String) -> [ThumborConfigError.Problem] {
        do {
            _ = try ThumborConfigFile(text: text, path: "thumbor.conf")
            Issue.record("accepted: \(text)")
            return []
        } catch {
            return error.problems
        }
    }

    @Test func everyLiteralKind() throws {
        let values = try values(
            #"""
            # thumbor.conf
            import re
            from os import path

            INT = 42
            NEGATIVE = -7
            UNDERSCORES = 1_000_000
            HEX = 0x1F
            OCTAL = 0o17
            BINARY = 0b101
            ZERO = 00
            FLOAT = 2.5
            EXPONENT = 75e6
            SMALL = 1e-3
            LEADING_DOT = .5
            SINGLE = 'it\'s'
            DOUBLE = "say \"hi\"\t\x41\u00e9\101\\"
            RAW = r'\d+\.example\.com'
            RAW_QUOTE = r'a\'b'
            UNKNOWN_ESCAPE = '\.'
            JOINED = 'a' "b" r'\c'
            TRIPLE = '''two
            lines'''
            BYTES = b'key'
            EMPTY = ''
            TRUE = True
            FALSE = False
            NOTHING = None
            LIST = [1, 'two', None,]
            TUPLE = (1, 2)
            SINGLETON = ('a',)
            EMPTY_TUPLE = ()
            PARENTHESES = (3)
            DICT = {'level': 'DEBUG', 'handlers': ['console']}
            PATTERN = re.compile(r'https://cdn\.example\.com/')
            A = 1; B = 'two'  # two statements on a line
            """#)
        let expected: [String: ThumborConfigValue] = [
            "INT": .int(42), "NEGATIVE": .int(-7), "UNDERSCORES": .int(1_000_000), "HEX": .int(31), "OCTAL": .int(15),
            "BINARY": .int(5), "ZERO": .int(0), "FLOAT": .float(2.5), "EXPONENT": .float(75_000_000),
            "SMALL": .float(0.001), "LEADING_DOT": .float(0.5),
            "SINGLE": .string("it's"), "DOUBLE": .string("say \"hi\"\tA\u{e9}A\\"),
            "RAW": .string(#"\d+\.example\.com"#), "RAW_QUOTE": .string(#"a\'b"#), "UNKNOWN_ESCAPE": .string(#"\."#),
            "JOINED": .string(#"ab\c"#), "TRIPLE": .string("two\nlines"), "BYTES": .string("key"), "EMPTY": .string(""),
            "TRUE": .bool(true), "FALSE": .bool(false), "NOTHING": ThumborConfigValue.none,
            "LIST": .list([.int(1), .string("two"), .none]), "TUPLE": .tuple([.int(1), .int(2)]),
            "SINGLETON": .tuple([.string("a")]), "EMPTY_TUPLE": .tuple([]), "PARENTHESES": .int(3),
            "DICT": .dict([
                .init(key: .string("level"), value: .string("DEBUG")),
                .init(key: .string("handlers"), value: .list([.string("console")])),
            ]),
            "PATTERN": .pattern(#"https://cdn\.example\.com/"#), "A": .int(1), "B": .string("two"),
        ]
        #expect(values == expected)
    }

    @Test func arithmeticAsPythonComputesIt() throws {
        let values = try values(
            """
            DAY = 24 * 60 * 60
            HALF = 7 / 2
            FLOOR = -7 // 2
            MODULO = -7 % 3
            FLOAT_MODULO = 7.5 % -2
            POWER = 2 ** 10
            NEGATIVE_POWER = -2 ** 2
            INVERSE = 2 ** -1
            MIXED = 1 + 0.5
            PRECEDENCE = 1 + 2 * 3 - 4
            GROUPED = (1 + 2) * 3
            TRUE_PLUS = True + 1
            TEXT = 'thumbor' + '.' + 'conf'
            """)
        #expect(values["DAY"] == .int(86_400))
        #expect(values["HALF"] == .float(3.5))
        #expect(values["FLOOR"] == .int(-4))
        #expect(values["MODULO"] == .int(2))
        #expect(values["FLOAT_MODULO"] == .float(-0.5))
        #expect(values["POWER"] == .int(1024))
        #expect(values["NEGATIVE_POWER"] == .int(-4))
        #expect(values["INVERSE"] == .float(0.5))
        #expect(values["MIXED"] == .float(1.5))
        #expect(values["PRECEDENCE"] == .int(3))
        #expect(values["GROUPED"] == .int(9))
        #expect(values["TRUE_PLUS"] == .int(2))
        #expect(values["TEXT"] == .string("thumbor.conf"))
    }

    @Test func continuationLinesAndLineNumbers() throws {
        let file = try ThumborConfigFile(
            text: """
                FILTERS = [
                    'thumbor.filters.quality',  # a comment inside the list
                    'thumbor.filters.blur',
                ]
                TOTAL = 1 + \\
                    2
                MAX_AGE = 10
                MAX_AGE = 20

                KEY = '''a
                b'''
                AFTER = 1
                """, path: "thumbor.conf")
        #expect(file.assignments.map(\.name) == ["FILTERS", "TOTAL", "MAX_AGE", "MAX_AGE", "KEY", "AFTER"])
        #expect(file.assignments.map(\.line) == [1, 5, 7, 8, 10, 12])
        #expect(
            file.last("FILTERS")?.value == .list([.string("thumbor.filters.quality"), .string("thumbor.filters.blur")]))
        #expect(file.last("TOTAL")?.value == .int(3))
        // A name assigned twice keeps its last value, as in Python.
        #expect(file.last("MAX_AGE") == ThumborConfigFile.Assignment(name: "MAX_AGE", value: .int(20), line: 8))
        #expect(file.names == ["FILTERS", "TOTAL", "MAX_AGE", "KEY", "AFTER"])
    }

    @Test func everyRefusedLineIsNamedWithItsNumber() {
        let literals = ThumborConfigParser.literalsOnly
        let found = problems(
            """
            import os
            SECURITY_KEY = os.environ.get('KEY', 'x')
            MAX_AGE = 60
            if True:
                AUTO_WEBP = True
            print('x')
            QUALITY = f'{80}'
            WIDTH = 010
            ALLOWED = {'a', 'b'}
            RATIO = 1 / 0
            MIXED = 'a' * 2
            PATTERN = re.compile(r'a', re.I)
            OK = 1
            """)
        #expect(
            found == [
                .init(line: 2, "'SECURITY_KEY = os.environ.get('KEY', 'x')' is not a literal: \(literals)"),
                .init(line: 4, "'if True:' is not an assignment: a thumbor configuration sets NAME = value"),
                .init(
                    line: 5,
                    "an indented line (inside an if, for, def or with block) is not read: write each setting as NAME = value at the start of its line"
                ),
                .init(line: 6, "'print('x')' is not an assignment: a thumbor configuration sets NAME = value"),
                .init(line: 7, "f-strings are expressions: \(literals)"),
                .init(line: 8, "'010' is not a number wi serve reads (malformed, or beyond 64 bits)"),
                .init(line: 9, "sets ({a, b}) are not read: \(literals)"),
                .init(line: 10, "division by zero"),
                .init(line: 11, "str * int is not read: only numbers are combined, and strings joined with +"),
                .init(line: 12, "re.compile() with flags is not read: write the pattern alone"),
            ])
    }

    @Test func anUnclosedStringOrBracketStopsTheReadingAtItsLine() throws {
        #expect(problems("A = 1\nB = 'open\nC = 2\n") == [.init(line: 2, "a string that is never closed on its line")])
        #expect(problems("A = 1\nL = [1,\n  2\nC = 3\n") == [.init(line: 2, "'[' is never closed")])
        #expect(problems("K = '''open\n") == [.init(line: 1, "a string that is never closed")])
        #expect(problems("K = 'bad \\x4'\n") == [.init(line: 1, "a bad \\x escape in a string")])
        #expect(problems("MAX_AGE =\n") == [.init(line: 1, "MAX_AGE = has no value")])
        #expect(
            problems("L = [1 2]\n") == [
                .init(line: 1, "'L = [1 2]' is not a literal: \(ThumborConfigParser.literalsOnly)")
            ])
        // The error's description names the file and each line.
        do {
            _ = try ThumborConfigFile(text: "A = b\n\nC = d\n", path: "/etc/thumbor.conf")
            Issue.record("accepted")
        } catch {
            #expect(
                error.description == """
                    /etc/thumbor.conf:1: 'A = b' is not a literal: \(ThumborConfigParser.literalsOnly)
                    /etc/thumbor.conf:3: 'C = d' is not a literal: \(ThumborConfigParser.literalsOnly)
                    """)
        }
        #expect(
            throws: ThumborConfigError(
                path: "/nonexistent/thumbor.conf",
                problems: [.init(line: 0, "cannot read the thumbor configuration file")])
        ) {
            try ThumborConfigFile(path: "/nonexistent/thumbor.conf")
        }
    }
}
