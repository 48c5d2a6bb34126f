import Foundation
import Simulation

extension LabelledTruth {
    /// The typed truth as a scene file keeps it (docs/scenes.md): `people`, with each person's
    /// face keyframes in whole pixels and hidden frame ranges, and `speech` in milliseconds'
    /// precision (absent when nobody speaks).
    public var sceneFields: [String: Any] {
        var fields: [String: Any] = [
            "people": people.map { person -> [String: Any] in
                var p: [String: Any] = [
                    "id": person.id,
                    "faces": person.keyframes.map { k in
                        [Double(k.frame), k.face.x, k.face.y, k.face.width, k.face.height].map { $0.rounded() }
                    },
                ]
                if !person.hidden.isEmpty { p["hidden"] = person.hidden.map { [$0.lowerBound, $0.upperBound] } }
                return p
            }
        ]
        if !speech.isEmpty {
            fields["speech"] = speech.map { turn -> [String: Any] in
                ["id": turn.id, "from_s": Self.milliseconds(turn.span.start), "to_s": Self.milliseconds(turn.span.end)]
            }
        }
        return fields
    }

    static func milliseconds(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

    /// A scene file's text: pretty, keys sorted, so that a reviewed file differs from the
    /// proposal only where the truth changed.
    public static func sceneText(_ scene: [String: Any]) -> String {
        let data =
            (try? JSONSerialization.data(
                withJSONObject: scene, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return compactingNumberRows(String(decoding: data, as: UTF8.self)) + "\n"
    }

    /// Arrays of numbers (a face keyframe, a hidden range) on one line each, as people write them.
    static func compactingNumberRows(_ text: String) -> String {
        let number = #"-?[0-9][0-9.eE+-]*"#
        guard let rows = try? NSRegularExpression(pattern: #"\[\s*"# + number + #"(\s*,\s*"# + number + #")*\s*\]"#)
        else { return text }
        var out = text
        for match in rows.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let range = Range(match.range, in: out) else { continue }
            let numbers = out[range].dropFirst().dropLast().split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            out.replaceSubrange(range, with: "[" + numbers.joined(separator: ", ") + "]")
        }
        return out
    }
}
