import Foundation
import TestSupport
import Testing

/// The house rules a newcomer relies on, checked on the source tree: every module's
/// dependencies in Package.swift are exactly what it imports, every module says its one idea
/// in the architecture page's module table, no function is longer than 80 lines.
@Suite(.tags(.unit)) struct LayoutTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    /// Modules of the toolchain and the system: imported, never listed.
    static let systemModules: Set<String> = ["Foundation", "Glibc", "Synchronization", "Testing", "XCTest", "Dispatch"]
    /// Modules a program may list without importing them: linked for what they do as it loads
    /// (DockKit's in-process docks register the simulated gimbal).
    static let loadedNotImported: Set<String> = ["DockKitInProcess"]

    struct Target {
        var name: String
        var kind: String
        var dependencies: Set<String>
        var path: String
    }

    /// The targets declared in Package.swift: `.kind(name: "…", dependencies: [...], path: "…")`.
    static func targets() throws -> [Target] {
        let manifest = try String(contentsOfFile: root + "/Package.swift", encoding: .utf8)
        var targets: [Target] = []
        let declarations = manifest.components(separatedBy: ".").filter {
            $0.hasPrefix("target(") || $0.hasPrefix("testTarget(") || $0.hasPrefix("executableTarget(")
        }
        for declaration in declarations {
            let kind = String(declaration.prefix { $0 != "(" })
            guard let name = firstQuoted(after: "name:", in: declaration) else { continue }
            var dependencies: Set<String> = []
            if let list = declaration.range(of: "dependencies: [") {
                let rest = declaration[list.upperBound...]
                let body = rest[..<(rest.firstIndex(of: "]") ?? rest.endIndex)]
                dependencies = Set(
                    body.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter {
                        $0.offset % 2 == 1
                    }.map { String($0.element) })
            }
            let path =
                firstQuoted(after: "path:", in: declaration) ?? (kind == "testTarget" ? "Tests/" : "Sources/") + name
            targets.append(Target(name: name, kind: kind, dependencies: dependencies, path: path))
        }
        return targets
    }

    static func firstQuoted(after key: String, in text: String) -> String? {
        guard let start = text.range(of: key) else { return nil }
        let parts = text[start.upperBound...].split(separator: "\"", maxSplits: 2, omittingEmptySubsequences: false)
        return parts.count > 2 ? String(parts[1]) : nil
    }

    static func swiftFiles(in path: String) -> [String] {
        let folder = root + "/" + path
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { folder + "/" + $0 }
    }

    @Test func everyModuleListsExactlyWhatItImports() throws {
        let targets = try Self.targets()
        #expect(targets.count > 30, "Package.swift read as \(targets.map(\.name))")
        for target in targets {
            let files = Self.swiftFiles(in: target.path)
            guard !files.isEmpty else { continue }  // C shims
            var imports: Set<String> = []
            for file in files {
                for line in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n") {
                    let words = line.split(separator: " ")
                    if let i = words.firstIndex(of: "import"),
                        i == words.startIndex || ["@testable", "@_exported"].contains(words[words.startIndex])
                    {
                        // A module's name is its target's with "-" spelled "_".
                        if i + 1 < words.endIndex {
                            imports.insert(String(words[i + 1]).replacingOccurrences(of: "_", with: "-"))
                        }
                    }
                }
            }
            imports.subtract(Self.systemModules)
            let listed = target.dependencies.subtracting(Self.loadedNotImported.subtracting(imports))
            #expect(
                imports == listed,
                "\(target.name): imported but not listed \(imports.subtracting(listed).sorted()), listed but not imported \(listed.subtracting(imports).sorted())"
            )
        }
    }

    /// A module's size is not capped (a cap moves files into the wrong room); each one instead
    /// has a row in docs/architecture.md that says what it holds, and a new one must get its row.
    @Test func everyModuleHasItsRowInTheModuleTable() throws {
        let page = try String(contentsOfFile: Self.root + "/docs/architecture.md", encoding: .utf8)
        let rows = Set(
            page.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
                return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
            })
        let modules = try Self.targets().filter { $0.kind == "target" && $0.name != "TestSupport" }.map(\.name)
        let missing = modules.filter { !rows.contains($0) }
        #expect(missing.isEmpty, "give these modules a row in docs/architecture.md's module table: \(missing)")
    }

    /// The tests mirror the modules: each test target is named after the module it tests and
    /// depends on it, so a newcomer finds a module's tests by its name and no catch-all grows.
    @Test func everyTestTargetIsNamedAfterTheModuleItTests() throws {
        let targets = try Self.targets()
        let modules = Set(targets.filter { $0.kind == "target" }.map(\.name))
        let testTargets = targets.filter { $0.kind == "testTarget" && $0.name != "LayoutTests" }
        #expect(testTargets.count > 10, "Package.swift's test targets read as \(testTargets.map(\.name))")
        let strays = testTargets.filter {
            let module = String($0.name.dropLast("Tests".count))
            return !$0.name.hasSuffix("Tests") || !modules.contains(module) || !$0.dependencies.contains(module)
        }
        #expect(strays.isEmpty, "name these test targets after the module they test: \(strays.map(\.name))")
    }

    @Test func noFunctionIsOverEightyLines() throws {
        var long: [String] = []
        for file in Self.swiftFiles(in: "Sources") + Self.swiftFiles(in: "Examples") + Self.swiftFiles(in: "Fuzz") {
            for (line, length) in FunctionLengths.measure(try String(contentsOfFile: file, encoding: .utf8))
            where length > 80 {
                long.append("\(file.dropFirst(Self.root.count + 1)):\(line) is \(length) lines")
            }
        }
        #expect(long.isEmpty, "\(long.joined(separator: "; "))")
    }

    /// Every suite says what kind it is (unit, device, process, real-time), and the ones that
    /// start programs or run in real time stay out of `Scripts/test --fast`.
    @Test func everySuiteIsTagged() throws {
        let kinds = [".unit", ".device", ".process", ".realTime"]
        var untagged: [String] = []
        for file in Self.swiftFiles(in: "Tests") {
            for line in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            where line.hasPrefix("@Suite") {
                let found = kinds.filter { line.contains(".tags(\($0))") }
                let slow = line.contains(".tags(.process)") || line.contains(".tags(.realTime)")
                if found.count != 1 || (slow && !line.contains(".notInFastRuns")) {
                    untagged.append("\(file.dropFirst(Self.root.count + 1)): \(line)")
                }
            }
        }
        #expect(untagged.isEmpty, "\(untagged.joined(separator: "; "))")
    }

    /// The measure itself: a function's braces, with strings and comments left out.
    @Test func functionLengthsCountBodiesNotStrings() {
        let source = """
            struct A {
                func short() {
                    let brace = "{"
                    // }
                }
                init(x: Int) {
                    if x > 0 {
                        print(x)
                    }
                }
            }
            """
        #expect(FunctionLengths.measure(source).map(\.length) == [4, 5])
        let multiline = "func a() {\n    let text = \"\"\"\n    { { {\n    \"\"\"\n}\nfunc b() {}\n"
        #expect(FunctionLengths.measure(multiline).map(\.length) == [5, 1])
    }
}

/// Lengths of functions and initializers in Swift source, by their braces.
enum FunctionLengths {
    static func measure(_ source: String) -> [(line: Int, length: Int)] {
        let lines = code(source).split(separator: "\n", omittingEmptySubsequences: false)
        var result: [(line: Int, length: Int)] = []
        for (start, line) in lines.enumerated() where isDeclaration(line) {
            var depth = 0
            var opened = false
            for index in start..<lines.count {
                for character in lines[index] {
                    if character == "{" {
                        depth += 1
                        opened = true
                    }
                    if character == "}" { depth -= 1 }
                }
                // A declaration without a body (a protocol requirement) ends early.
                if !opened && index > start + 5 { break }
                if opened && depth <= 0 {
                    result.append((start + 1, index - start + 1))
                    break
                }
            }
        }
        return result
    }

    static func isDeclaration(_ line: Substring) -> Bool {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == "<" })
        return words.contains { $0 == "func" || $0 == "init" || $0 == "init?" || $0 == "deinit" }
    }

    /// The source with string literals (single- and multi-line) and comments blanked out;
    /// line breaks kept, so line numbers stay.
    static func code(_ source: String) -> String {
        enum State { case code, string, multilineString, lineComment, blockComment }
        var state = State.code
        var out = ""
        var index = source.startIndex
        func next(_ text: String) -> Bool { source[index...].hasPrefix(text) }
        while index < source.endIndex {
            let character = source[index]
            var step = 1
            switch state {
            case .code:
                if next("\"\"\"") {
                    state = .multilineString
                    step = 3
                } else if character == "\"" {
                    state = .string
                } else if next("//") {
                    state = .lineComment
                } else if next("/*") {
                    state = .blockComment
                    step = 2
                } else {
                    out.append(character)
                }
            case .string:
                if character == "\\" {
                    step = 2
                } else if character == "\"" {
                    state = .code
                } else if character == "\n" {
                    state = .code
                    out.append(character)
                }
            case .multilineString:
                if character == "\\" {
                    step = 2
                } else if next("\"\"\"") {
                    state = .code
                    step = 3
                } else if character == "\n" {
                    out.append(character)
                }
            case .lineComment:
                if character == "\n" {
                    state = .code
                    out.append(character)
                }
            case .blockComment:
                if next("*/") {
                    state = .code
                    step = 2
                } else if character == "\n" {
                    out.append(character)
                }
            }
            index = source.index(index, offsetBy: step, limitedBy: source.endIndex) ?? source.endIndex
        }
        return out
    }
}
