import DockCore
import Foundation

/// dockd's configuration file: a JSON object of sections, each key the counterpart of one
/// command-line option (docs/configuration.md). It is read strictly (unknown keys,
/// wrong types and bad values are refused with the key's path) and becomes the options it
/// stands for, so one parser checks both the file and the command line.
public enum DockdConfigFile {
    /// How a key's JSON value becomes command-line tokens.
    enum Kind {
        /// A string or number passed as the option's value.
        case value
        /// A file or directory: relative paths are taken from the configuration file's folder.
        case path
        /// true adds the option; false leaves it out.
        case flag
        /// false adds the option (`"enabled": false` → `--no-audio`).
        case negatedFlag
        /// A list of names joined with commas.
        case names
        /// Four numbers joined with commas.
        case quadruple
    }

    /// Every section with its keys and the option each stands for, from the option table, in
    /// the order they are applied.
    static let sections: [(name: String, keys: [(key: DockdOption.ConfigKey, option: String)])] = {
        var sections: [(name: String, keys: [(key: DockdOption.ConfigKey, option: String)])] = []
        for option in DockdOption.all {
            guard let key = option.key else { continue }
            if let index = sections.firstIndex(where: { $0.name == key.section }) {
                sections[index].keys.append((key, option.name))
            } else {
                sections.append((key.section, [(key, option.name)]))
            }
        }
        return sections
    }()

    /// One setting: where it came from and the tokens it stands for.
    public struct Setting: Sendable, Equatable {
        public let keyPath: String
        public let tokens: [String]
    }

    static let maximumSize = 1 << 20

    /// Reads the file; every problem is one line naming the file and the key.
    public static func load(path: String) throws(UsageError) -> [Setting] {
        // A plain file of sensible size: not a device or a pipe that never ends.
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let attributes, attributes[.type] as? FileAttributeType != .typeRegular {
            throw UsageError("the configuration file \(path) is not a regular file")
        }
        if let size = attributes?[.size] as? Int, size > maximumSize {
            throw UsageError("the configuration file \(path) is \(size) bytes; a configuration is a few hundred")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("cannot read the configuration file \(path): does it exist, and may dockd read it?")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            return try settings(from: data, directory: directory)
        } catch {
            throw UsageError("\(path): \(error.message)")
        }
    }

    /// The settings of a configuration file's text, each checked as the option it stands for.
    public static func settings(from data: Data, directory: String) throws(UsageError) -> [Setting] {
        var out: [Setting] = []
        do throws(JSONFieldError) {
            let root = try JSONFields.parse(data)
            for section in sections {
                guard let fields = try root.object(section.name) else { continue }
                for (key, option) in section.keys {
                    guard fields.has(key.name) else { continue }
                    let keyPath = fields.child(key.name)
                    guard let tokens = try tokens(for: key, option: option, in: fields, directory: directory) else {
                        continue
                    }
                    // Checked alone, so that a bad value is reported against its key.
                    do { _ = try DockdOptions.parseCommandLine(tokens, checkCombinations: false) } catch {
                        throw JSONFieldError(path: keyPath, problem: error.message)
                    }
                    out.append(Setting(keyPath: keyPath, tokens: tokens))
                }
                try fields.finish(help: "docs/configuration.md")
            }
            try root.finish(help: "docs/configuration.md")
        } catch {
            throw UsageError(error.description)
        }
        return out
    }

    private static func tokens(
        for key: DockdOption.ConfigKey, option: String, in fields: JSONFields,
        directory: String
    ) throws(JSONFieldError) -> [String]? {
        switch key.kind {
        case .value:
            return [option, try fields.scalar(key.name)]
        case .path:
            guard let text = try fields.string(key.name) else { return nil }
            return [
                option, text.hasPrefix("/") ? text : URL(fileURLWithPath: directory).appendingPathComponent(text).path,
            ]
        case .flag:
            return try fields.bool(key.name) == true ? [option] : nil
        case .negatedFlag:
            return try fields.bool(key.name) == false ? [option] : nil
        case .names:
            guard let list = try fields.array(key.name) else { return nil }
            var names: [String] = []
            for (index, item) in list.enumerated() {
                guard let name = item as? String, !name.isEmpty, !name.contains(",") else {
                    throw JSONFieldError(
                        path: "\(fields.child(key.name))[\(index)]", problem: "expects a name such as \"cat\"")
                }
                names.append(name)
            }
            guard !names.isEmpty else { throw fields.error(key.name, "expects at least one name") }
            return [option, names.joined(separator: ",")]
        case .quadruple:
            guard let numbers = try fields.numbers(key.name), numbers.count == 4 else {
                throw fields.error(key.name, "expects [x, y, width, height]")
            }
            return [option, numbers.map { String($0) }.joined(separator: ",")]
        }
    }
}

extension JSONFields {
    /// A string, or a number written as the command line would take it.
    func scalar(_ key: String) throws(JSONFieldError) -> String {
        if let text = try? string(key) { return text }
        guard let number = try number(key, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) else {
            throw error(key, "is required")
        }
        return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
