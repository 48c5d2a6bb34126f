import DockCore
import Foundation
import Pipeline
import Simulation

/// A recording's scene file under review (`dockctl review`): each edit is checked by the scene
/// reader and written back at once, so closing the page loses nothing; every other key of the
/// file is written back as it was. Edits can be undone one by one.
public struct ReviewedScene: Sendable {
    public let path: String
    /// The recording, as a path this process can open.
    public let video: String
    public private(set) var truth: LabelledTruth
    /// Still marked as the proposal nobody checked (`truth.proposed`).
    public private(set) var proposed: Bool
    public private(set) var primary: Int?
    /// The file as read, for the keys the review does not touch.
    private let original: Data
    private var history: [State] = []

    private struct State: Sendable {
        var truth: LabelledTruth
        var proposed: Bool
        var primary: Int?
    }

    public var canUndo: Bool { !history.isEmpty }

    public init(path: String) throws(SessionError) {
        let scene = try BenchScene.load(path: path)
        guard case .video(let video, let truth) = scene.world else {
            throw SessionError("scene \(path): review is for recordings, and this scene is generated")
        }
        guard let data = FileManager.default.contents(atPath: path),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let fields = root["truth"] as? [String: Any]
        else { throw SessionError("scene \(path): cannot read it again") }
        if let imported = ["mot", "ava", "rttm"].first(where: { fields[$0] != nil }) {
            throw SessionError(
                "scene \(path): its truth comes from a label file (truth.\(imported)); review edits people and speech typed in the scene, as dockctl label writes them"
            )
        }
        self.path = path
        self.video = video
        self.truth = truth
        proposed = scene.truthIsProposed
        primary = scene.primaryID
        original = data
    }

    public mutating func apply(_ edit: TruthEdit) throws(SessionError) {
        var next = State(truth: truth, proposed: proposed, primary: primary)
        do { try next.truth.apply(edit) } catch { throw SessionError(error.description) }
        if case .merge(let from, let into) = edit, primary == from { next.primary = into }
        if let p = next.primary, !next.truth.people.contains(where: { $0.id == p }) { next.primary = nil }
        guard !next.truth.people.isEmpty else {
            throw SessionError("a recording's truth needs at least one person: this edit would leave none")
        }
        try commit(next)
    }

    /// Marks the truth checked by someone (the proposed mark goes) or proposed again.
    public mutating func setChecked(_ checked: Bool) throws(SessionError) {
        try commit(State(truth: truth, proposed: !checked, primary: primary))
    }

    /// Takes the last edit back; false when there is none.
    public mutating func undo() throws(SessionError) -> Bool {
        guard let last = history.last else { return false }
        try commit(last, remembering: false)
        history.removeLast()
        return true
    }

    /// The scene file's text with the truth as it stands.
    public var text: String { Self.text(original, State(truth: truth, proposed: proposed, primary: primary)) }

    private static func text(_ original: Data, _ state: State) -> String {
        var root = (try? JSONSerialization.jsonObject(with: original) as? [String: Any]) ?? [:]
        var fields = (root["truth"] as? [String: Any]) ?? [:]
        for key in ["people", "speech", "proposed", "primary"] { fields[key] = nil }
        fields.merge(state.truth.sceneFields) { $1 }
        if state.proposed { fields["proposed"] = true }
        if let primary = state.primary { fields["primary"] = primary }
        root["truth"] = fields
        return LabelledTruth.sceneText(root)
    }

    /// Checks the new text with the scene reader, writes it in place of the file, and makes it
    /// the state.
    private mutating func commit(_ state: State, remembering: Bool = true) throws(SessionError) {
        let text = Self.text(original, state)
        let directory = (path as NSString).deletingLastPathComponent
        do {
            _ = try BenchScene.parse(
                Data(text.utf8), directory: directory.isEmpty ? "." : directory,
                defaultName: ((path as NSString).lastPathComponent as NSString).deletingPathExtension)
        } catch {
            throw SessionError("the edit would leave the scene unreadable, so it was not made: \(error)")
        }
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw SessionError("cannot write \(path): \(error.localizedDescription)")
        }
        if remembering { history.append(State(truth: truth, proposed: proposed, primary: primary)) }
        (truth, proposed, primary) = (state.truth, state.proposed, state.primary)
    }
}
