import Foundation

/// A problem at one place in a JSON document: `path` is the key path (`world.generated.people[1].path`).
public struct JSONFieldError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let problem: String
    public var description: String { path.isEmpty ? problem : "\(path): \(problem)" }

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }
}

/// Reads one JSON object strictly: typed getters that name the key's path on error, and
/// `finish()` refusing keys nobody asked for (a misspelt key must not be silently ignored).
package final class JSONFields {
    package let path: String
    private let object: [String: Any]
    private var read: Set<String> = []

    package init(_ value: Any?, path: String) throws(JSONFieldError) {
        guard let object = value as? [String: Any] else {
            throw JSONFieldError(path: path, problem: "expects an object {…}")
        }
        self.object = object
        self.path = path
    }

    /// Scene and configuration files are shallow; deeper nesting is refused before parsing.
    package static let maximumDepth = 32

    package static func parse(_ data: Data) throws(JSONFieldError) -> JSONFields {
        guard depth(of: data) <= maximumDepth else {
            throw JSONFieldError(
                path: "",
                problem: "nested deeper than \(maximumDepth) levels; scene and configuration files are shallow")
        }
        let value: Any
        do { value = try JSONSerialization.jsonObject(with: data) } catch {
            throw JSONFieldError(path: "", problem: "not valid JSON (\(Self.reason(error)))")
        }
        return try JSONFields(value, path: "")
    }

    /// The deepest nesting of [ and { outside strings.
    package static func depth(of data: Data) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    private static func reason(_ error: Error) -> String {
        (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
    }

    package func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    package func has(_ key: String) -> Bool { object[key] != nil }

    /// The object's keys, sorted: for a map whose keys are names the file chooses.
    package var keys: [String] { object.keys.sorted() }

    private func take(_ key: String) -> Any? {
        read.insert(key)
        return object[key]
    }

    package func error(_ key: String, _ problem: String) -> JSONFieldError {
        JSONFieldError(path: child(key), problem: problem)
    }

    package static func number(_ value: Any, path: String) throws(JSONFieldError) -> Double {
        guard !Self.isBoolean(value), let number = value as? NSNumber, number.doubleValue.isFinite else {
            throw JSONFieldError(path: path, problem: "expects a number")
        }
        return number.doubleValue
    }

    package func number(_ key: String, in range: ClosedRange<Double>) throws(JSONFieldError) -> Double? {
        guard let value = take(key) else { return nil }
        let number = try Self.number(value, path: child(key))
        guard range.contains(number) else {
            throw error(
                key,
                "\(Self.format(number)) is outside \(Self.format(range.lowerBound))…\(Self.format(range.upperBound))")
        }
        return number
    }

    package func integer(_ key: String, in range: ClosedRange<Int>) throws(JSONFieldError) -> Int? {
        guard let number = try number(key, in: Double(range.lowerBound)...Double(range.upperBound)) else { return nil }
        guard number == number.rounded() else { throw error(key, "expects a whole number") }
        return Int(number)
    }

    package func string(_ key: String) throws(JSONFieldError) -> String? {
        guard let value = take(key) else { return nil }
        guard let text = value as? String, !text.isEmpty else { throw error(key, "expects a non-empty string") }
        return text
    }

    package func bool(_ key: String) throws(JSONFieldError) -> Bool? {
        guard let value = take(key) else { return nil }
        guard Self.isBoolean(value), let flag = value as? Bool else { throw error(key, "expects true or false") }
        return flag
    }

    package func object(_ key: String) throws(JSONFieldError) -> JSONFields? {
        guard let value = take(key) else { return nil }
        return try JSONFields(value, path: child(key))
    }

    package func array(_ key: String) throws(JSONFieldError) -> [Any]? {
        guard let value = take(key) else { return nil }
        guard let list = value as? [Any] else { throw error(key, "expects a list […]") }
        return list
    }

    /// A list of objects, each read by `body` and finished.
    package func objects<T>(_ key: String, _ body: (JSONFields) throws(JSONFieldError) -> T) throws(JSONFieldError)
        -> [T]?
    {
        guard let list = try array(key) else { return nil }
        var out: [T] = []
        for (index, item) in list.enumerated() {
            let fields = try JSONFields(item, path: "\(child(key))[\(index)]")
            out.append(try body(fields))
            try fields.finish()
        }
        return out
    }

    /// A list of numbers such as [3, 6.5].
    package func numbers(_ key: String) throws(JSONFieldError) -> [Double]? {
        guard let list = try array(key) else { return nil }
        var out: [Double] = []
        for (index, value) in list.enumerated() { out.append(try Self.number(value, path: "\(child(key))[\(index)]")) }
        return out
    }

    /// A list of fixed-length number tuples such as [[t, yaw, pitch], …].
    package func tuples(_ key: String, length: ClosedRange<Int>, shape: String) throws(JSONFieldError) -> [[Double]]? {
        guard let list = try array(key) else { return nil }
        var out: [[Double]] = []
        for (index, item) in list.enumerated() {
            let itemPath = "\(child(key))[\(index)]"
            guard let row = item as? [Any], length.contains(row.count) else {
                throw JSONFieldError(path: itemPath, problem: "expects \(shape)")
            }
            var numbers: [Double] = []
            for value in row { numbers.append(try Self.number(value, path: itemPath)) }
            out.append(numbers)
        }
        return out
    }

    /// Refuses keys nobody read; `help` says where the keys are documented.
    package func finish(help: String = "docs/scenes.md") throws(JSONFieldError) {
        if let unknown = object.keys.filter({ !read.contains($0) }).sorted().first {
            throw error(unknown, "unknown key (misspelt? see \(help))")
        }
    }

    /// JSON true/false: Foundation on Linux gives every number as an NSNumber that also casts to
    /// Bool, so the class tells them apart.
    package static func isBoolean(_ value: Any) -> Bool {
        String(describing: type(of: value)).contains("Boolean")
    }

    package static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(format: "%g", x)
    }
}
