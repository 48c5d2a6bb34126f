import DockCore
import Foundation

/// One of dockd's options: its name, the value it takes, its help, its key in the
/// configuration file and what it does. `DockdOption.all` is the one table dockd's parser, the
/// configuration file, `dockd --help` and the configuration reference are made from.
struct DockdOption: Sendable {
    /// A group in `--help`.
    enum Group: String, CaseIterable, Sendable {
        case source = "Source"
        case gimbal = "Gimbal and camera"
        case pipeline = "Pipeline"
        case speakers = "Speakers"
        case videoOut = "Video out (other programs read the tracked camera)"
        case control = "Control API (docs/control-api.md)"
        case run = "Run"
    }

    /// Where the option lives in the configuration file, and how its JSON value becomes the
    /// option's tokens.
    struct ConfigKey: Sendable {
        let section: String
        let name: String
        let kind: DockdConfigFile.Kind
        /// The configuration reference's description of the key's value.
        let summary: String
        var path: String { section + "." + name }
    }

    /// Sets the option's value (empty for a flag); throws a UsageError saying what is wrong.
    typealias Apply = @Sendable (inout DockdOptions, String) throws -> Void

    let name: String
    var aliases: [String] = []
    /// The value's placeholder in `--help` (`FILE`, `WxH`); nil for a flag.
    let value: String?
    let group: Group
    /// `--help`'s lines for it; the first goes beside the name.
    let help: [String]
    let key: ConfigKey?
    let apply: Apply

    /// An option that takes a value.
    init(_ name: String, _ value: String, _ group: Group, help: [String], key: ConfigKey? = nil, apply: @escaping Apply)
    {
        self.init(name, value: value, group, aliases: [], help: help, key: key, apply: apply)
    }

    /// A flag.
    init(
        _ name: String, _ group: Group, aliases: [String] = [], help: [String], key: ConfigKey? = nil,
        apply: @escaping Apply
    ) {
        self.init(name, value: nil, group, aliases: aliases, help: help, key: key, apply: apply)
    }

    private init(
        _ name: String, value: String?, _ group: Group, aliases: [String], help: [String], key: ConfigKey?,
        apply: @escaping Apply
    ) {
        self.name = name
        self.value = value
        self.group = group
        self.aliases = aliases
        self.help = help
        self.key = key
        self.apply = apply
    }

    static let byName: [String: DockdOption] = {
        var table: [String: DockdOption] = [:]
        for option in all {
            for name in [option.name] + option.aliases { table[name] = option }
        }
        return table
    }()

    /// `--help`'s option lines: the name and value in a 24-column gutter, the help beside it.
    static func helpText(for group: Group) -> String {
        let gutter = 24
        var lines: [String] = []
        for option in all where option.group == group {
            let label =
                ([option.name] + option.aliases).reversed().joined(separator: ", ")
                + (option.value.map { " " + $0 } ?? "")
            var help = option.help
            if label.count < gutter {
                lines.append("  " + label.padding(toLength: gutter, withPad: " ", startingAt: 0) + help.removeFirst())
            } else {
                lines.append("  " + label)
            }
            lines += help.map { String(repeating: " ", count: gutter + 2) + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// The configuration reference (`dockd --reference`, docs/configuration.md after its
    /// introduction): a table a group, one row an option, with its key in the file.
    static var reference: String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        var text = "\n`--config FILE` reads these settings from a JSON file; options on the command line override it.\n"
        for group in Group.allCases {
            text += "\n### \(group.rawValue)\n\n| option | key in the file | what it does |\n|---|---|---|\n"
            for option in all where option.group == group {
                let names = ([option.name] + option.aliases).map { name in
                    "`" + cell(name + (option.value.map { " " + $0 } ?? "")) + "`"
                }
                // A line with a column of its own (a device kind, then what it is) keeps it apart.
                let help = option.help.map {
                    $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(
                        of: " {2,}", with: " — ", options: .regularExpression)
                }.joined(separator: " ")
                let key = option.key.map { "`\($0.path)`: \(cell($0.summary))" } ?? "—"
                text += "| \(names.joined(separator: ", ")) | \(key) | \(cell(help)) |\n"
            }
        }
        return text
    }
}

/// The names of a fixed set of choices (the detectors, the laws), as `--help`, the reference and
/// the errors spell them, so the lists come from the enum and cannot drift from it.
enum Choices {
    /// `yunet|rfb|haar|lbp`
    static func placeholder<T: CaseIterable & RawRepresentable>(_: T.Type) -> String where T.RawValue == String {
        T.allCases.map(\.rawValue).joined(separator: "|")
    }

    /// `` `yunet`, `rfb`, `haar`, `lbp` ``
    static func code<T: CaseIterable & RawRepresentable>(_: T.Type) -> String where T.RawValue == String {
        T.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ")
    }

    /// `yunet, rfb, haar or lbp`
    static func prose<T: CaseIterable & RawRepresentable>(_: T.Type) -> String where T.RawValue == String {
        let names = T.allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
    }
}

/// Reading an option's value: each failure one line naming the option and what it expects.
enum OptionValue {
    static func number(_ text: String, _ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let v = Double(text), v.isFinite else { throw UsageError("\(name) expects a number, got '\(text)'") }
        guard range.contains(v) else {
            throw UsageError(
                "\(name) must be between \(format(range.lowerBound)) and \(format(range.upperBound)), got \(text)")
        }
        return v
    }

    static func integer(_ text: String, _ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let v = Int(text) else { throw UsageError("\(name) expects a whole number, got '\(text)'") }
        guard range.contains(v) else {
            throw UsageError("\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(text)")
        }
        return v
    }

    static func size(_ text: String, width: ClosedRange<Int>, height: ClosedRange<Int>, or message: String)
        throws(UsageError) -> PixelSize
    {
        guard let size = PixelSize(parsing: text), width.contains(size.width), height.contains(size.height) else {
            throw UsageError("\(message), got '\(text)'")
        }
        return size
    }

    /// One of a fixed set of names.
    static func choice<T: RawRepresentable>(_ text: String, _ type: T.Type, or message: String) throws(UsageError) -> T
    where T.RawValue == String {
        guard let v = T(rawValue: text) else { throw UsageError("\(message), got '\(text)'") }
        return v
    }

    /// "YAW,PITCH" in degrees → a pose in radians (x = pitch, y = yaw).
    static func pose(_ text: String, _ name: String) throws(UsageError) -> Vector3D {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let yaw = parts[0], let pitch = parts[1], abs(yaw) <= 180, abs(pitch) <= 90 else {
            throw UsageError("\(name) expects YAW,PITCH in degrees, e.g. 0,-5 (yaw within ±180, pitch within ±90)")
        }
        return Vector3D(x: pitch * .pi / 180, y: yaw * .pi / 180, z: 0)
    }

    static func format(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}
