import Foundation
import TestSupport
import Testing

/// The manual a user walks: a short README that points into docs/, and no link in either that
/// leads nowhere (a page moved, a heading renamed).
@Suite(.tags(.unit)) struct ManualTests {
    static let root = LayoutTests.root

    static func pages() -> [String] {
        let docs = FileManager.default.enumerator(atPath: root + "/docs")?.compactMap { $0 as? String } ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
    }

    /// GitHub's anchor for a heading (the text after its hashes): lower case, punctuation
    /// dropped, spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        let kept = heading.lowercased().unicodeScalars.filter {
            CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " "
        }
        // The space after the hashes goes; any other, a trailing one included, is a hyphen.
        return String(String(String.UnicodeScalarView(kept)).drop { $0 == " " })
            .replacingOccurrences(of: " ", with: "-")
    }

    /// The relative links of a page, outside its code blocks.
    static func links(in text: String) -> [String] {
        var prose = ""
        var inCode = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCode.toggle() } else if !inCode { prose += line + "\n" }
        }
        let pattern = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        let range = NSRange(prose.startIndex..., in: prose)
        return pattern.matches(in: prose, range: range).compactMap { Range($0.range(at: 1), in: prose) }
            .map { String(prose[$0]) }.filter { !$0.contains(":") }
    }

    @Test func theReadmeIsShort() throws {
        let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 300, "README.md has \(lines) lines: move the detail into docs/")
    }

    @Test func everyLinkInTheManualLeadsSomewhere() throws {
        var broken: [String] = []
        let pages = Self.pages()
        #expect(pages.count > 20)
        for page in pages {
            let text = try String(contentsOfFile: Self.root + "/" + page, encoding: .utf8)
            let folder = URL(fileURLWithPath: Self.root + "/" + page).deletingLastPathComponent()
            for link in Self.links(in: text) {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let target =
                    parts[0].isEmpty ? Self.root + "/" + page : folder.appendingPathComponent(String(parts[0])).path
                guard FileManager.default.fileExists(atPath: target) else {
                    broken.append("\(page): \(link) (no such file)")
                    continue
                }
                guard parts.count == 2, target.hasSuffix(".md") else { continue }
                let headings = try String(contentsOfFile: target, encoding: .utf8).split(separator: "\n")
                    .filter { $0.hasPrefix("#") }.map { Self.anchor(String($0.drop { $0 == "#" })) }
                if !headings.contains(String(parts[1])) { broken.append("\(page): \(link) (no such heading)") }
            }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "; "))")
    }

    @Test func anchorsAreGitHubs() {
        #expect(Self.anchor(" Under systemd") == "under-systemd")
        #expect(Self.anchor(" DockKit programs and dockd") == "dockkit-programs-and-dockd")
        #expect(Self.anchor(" Devices (`dockd --camera DEV --gimbal …`)") == "devices-dockd---camera-dev---gimbal-")
    }
}
