import Bench
import DockCore
import DockKit
import Foundation
import Imaging
import Motion
import PeerBench
import SceneFiles
import TestSupport
import Testing
import Tracking

@testable import BenchRunner
@testable import ControlClient
@testable import ControlServer
@testable import Options
@testable import Pipeline
@testable import Rigs

/// `dockctl bench SCENE…`: repeatable figures, a complete report, and a Python peer that does the
/// same work as OpenDock's detection path.
@Suite(.serialized, .tags(.unit), .notInFastRuns) struct SceneBenchTests {
    var base: SessionConfiguration {
        var c = SessionConfiguration()
        c.mediaDirectory = Fixtures.repositoryRoot + "/.cache/media"
        c.modelsDirectory = Fixtures.repositoryRoot + "/models"
        c.realTime = false
        return c
    }

    func scene(_ name: String) throws -> BenchScene {
        try BenchScene.load(path: Fixtures.repositoryRoot + "/scenes/\(name).json")
    }

    @Test func sameSceneAndSeedGiveTheSameFigures() throws {
        var c = base
        c.maximumFrames = 100
        let steps = try scene("steps")
        let a = try SceneRun.run(steps, base: c, law: .dock)
        let b = try SceneRun.run(steps, base: c, law: .dock)
        #expect(a.summary.frames == 100 && a.summary.trace == b.summary.trace)
        let pick = { (run: SceneRun) in run.figures.filter { SceneRun.deterministicKeys.contains($0.key) } }
        #expect(pick(a) == pick(b))
        // 100 frames reach 3.3 s: the first step (3 s) is measured; the person was acquired and framed.
        #expect(
            a.evaluation.steps.count == 1 && a.evaluation.steps == b.evaluation.steps
                && (a.evaluation.loop.inViewShare ?? 0) > 0.95)
        #expect(a.figures.first { $0.key == "acquire_s" }?.value.map { $0 < 0.5 } == true)
    }

    /// A 40-pixel face in 720p is about 10 pixels in the whole scan: it is found by the search
    /// of tiles at full resolution, and acquired within a second.
    @Test func aFaceTooSmallForTheWholeScanIsAcquiredWithinASecond() throws {
        var c = base
        c.maximumFrames = 60
        let run = try SceneRun.run(try scene("small-faces"), base: c, law: .dock)
        let acquired = try #require(run.evaluation.loop.timeToAcquire)
        #expect(acquired < 1, "acquired after \(acquired) s")
        #expect((run.evaluation.loop.inViewShare ?? 0) > 0.95)
    }

    /// The head and a crop of its camera's picture frame together: the head's figures are the
    /// head alone's, the crop adds its own and holds still on a still subject. A fixed camera's
    /// run has the crop's figures and none of the head's.
    @Test func theHeadAndACropFrameTogether() throws {
        var c = base
        c.maximumFrames = 150
        let still = try scene("still")
        let head = try SceneRun.run(still, base: c, law: .dock)
        let both = try SceneRun.run(still, base: c, law: .dock, framing: .motorsAndCrop)
        let fixed = try SceneRun.run(still, base: c, law: .dock, framing: .fixedCrop)
        func value(_ run: SceneRun, _ key: String) -> Double? { run.figures.first { $0.key == key }?.value }
        #expect(both.law == "dock+crop" && fixed.law == "digital")
        #expect(value(both, "centering_rms_deg") == value(head, "centering_rms_deg"), "the crop never moves the head")
        let crop = try #require(both.digitalFraming)
        #expect(crop.inViewShare == 1 && (crop.stillJitterRMS ?? .infinity) <= 0.5)
        #expect((value(both, "zoom_changes_per_min") ?? 0) > 0, "it zooms onto the person")
        #expect(value(fixed, "centering_rms_deg") == nil && value(fixed, "crop_centring_rms_deg") != nil)
        #expect(value(head, "crop_centring_rms_deg") == nil)
        #expect(try BenchCommand(arguments: ["--laws", "dock+crop"]).headAndCrop)
        #expect(throws: UsageError.self) { try BenchCommand(arguments: ["--laws", "pid+crop"]) }
    }

    @Test func reportHasTablesJSONTracesAndPlots() throws {
        let directory = Fixtures.temporaryDirectory("bench-report")
        let command = try BenchCommand(arguments: [
            Fixtures.repositoryRoot + "/scenes/steps.json", Fixtures.repositoryRoot + "/scenes/occlusion.json",
            "--frames", "40", "--report", directory, "--quiet",
            "--models", Fixtures.repositoryRoot + "/models", "--media", Fixtures.repositoryRoot + "/.cache/media",
        ])
        var notes: [String] = []
        let text = try command.run { notes.append($0) }
        #expect(text.contains("control law: dock") && text.contains("control law: pid") && text.contains("overall"))
        let json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json")))
            as? [String: Any]
        let laws = try #require(json?["laws"] as? [String: Any])
        let dock = try #require((laws["dock"] as? [String: Any])?["scenes"] as? [String: Any])
        let steps = try #require(dock["steps"] as? [String: Any])
        #expect(
            steps["frames"] as? Int == 40 && steps["centering_rms_deg"] is Double
                && (steps["stages"] as? [String: Any])?["detect"] != nil)
        let markdown = try String(contentsOfFile: directory + "/summary.md", encoding: .utf8)
        #expect(
            markdown.contains("| steps |") && markdown.contains("| occlusion |") && markdown.contains("| **overall** |")
        )
        // Shorter than every figure: the headline ones, each scene's goals met, those not met named.
        #expect(!markdown.contains("frame p99 ms") && markdown.contains(" | goals met |"), "\(markdown)")
        #expect(markdown.contains("goals met: ") && markdown.contains("- not met: steps, settle"), "\(markdown)")
        let trace = try String(contentsOfFile: directory + "/traces/occlusion-pid.csv", encoding: .utf8)
        #expect(trace.split(separator: "\n").count == 41 && trace.hasPrefix(TraceRow.csvHeader))
        for plot in ["error-steps-dock.png", "error-occlusion-pid.png", "bearings-occlusion-dock.png", "latency.png"] {
            let image = try Frame.read(contentsOf: directory + "/plots/" + plot)
            #expect(image.size == PixelSize(width: 1000, height: 400), "\(plot)")
        }
        #expect(notes.contains { $0.contains("report written to") })
        try checkThePage(directory)
    }

    /// report.html stands alone (its plots inline) and a browser draws it; `--compare` against an
    /// earlier report, one figure of which was worse, says that figure got better.
    func checkThePage(_ directory: String) throws {
        let page = try String(contentsOfFile: directory + "/report.html", encoding: .utf8)
        #expect(page.components(separatedBy: "src=\"data:image/png;base64,").count == 9, "2 plots × 4 runs")
        #expect(page.contains("id=\"run-occlusion-pid\"") && page.contains("href=\"traces/occlusion-pid.csv\""))
        #expect(!page.contains("http://") && !page.contains("https://"), "nothing from the network")
        // The figures beside their goals: steps' settle goal (0.53 s) is not met in 40 frames (no step yet).
        #expect(page.contains("<th>goal</th>") && page.contains(">≤ 0.53 not met</td>"), "\(page.prefix(3000))")
        // Drawn: the overview's tables, then the first card's plots in colour.
        let shot = try HeadlessBrowser.screenshot(
            "file://" + directory + "/report.html", milliseconds: 3000, width: 1280, height: 2000)
        // The dock law's blue: the head's line in the bearing plot and the error's line.
        var blue = 0
        for i in stride(from: 0, to: shot.pixels.count, by: 3) {
            let (b, g, r) = (Int(shot.pixels[i]), Int(shot.pixels[i + 1]), Int(shot.pixels[i + 2]))
            if abs(b - 220) < 30 && abs(g - 110) < 30 && abs(r - 20) < 30 { blue += 1 }
        }
        #expect(blue > 3000, "\(blue) pixels of the dock law's blue")

        // The earlier run: the same, but steps under dock centred worse and nothing else moved.
        let earlier = Fixtures.temporaryDirectory("bench-earlier")
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json")))
                as? [String: Any])
        var laws = try #require(json["laws"] as? [String: Any])
        var dock = try #require(laws["dock"] as? [String: Any])
        var scenes = try #require(dock["scenes"] as? [String: Any])
        var steps = try #require(scenes["steps"] as? [String: Any])
        let rms = try #require(steps["centering_rms_deg"] as? Double)
        steps["centering_rms_deg"] = rms + 5
        scenes["steps"] = steps
        dock["scenes"] = scenes
        laws["dock"] = dock
        json["laws"] = laws
        json["commit"] = "0123abc"
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: earlier + "/report.json"))
        let command = try BenchCommand(arguments: [
            Fixtures.repositoryRoot + "/scenes/steps.json", "--laws", "dock", "--frames", "40", "--report",
            directory + "-again", "--compare", earlier, "--quiet", "--models", Fixtures.repositoryRoot + "/models",
            "--media", Fixtures.repositoryRoot + "/.cache/media",
        ])
        let text = try command.run { _ in }
        let line = String(format: "dock, steps: RMS ° %.2f → %.2f (better)", rms + 5, rms)
        #expect(text.contains(line), "\(text)")
        #expect(!text.contains("(worse)"), "lock-step is deterministic: \(text)")
        // Between two commits: the earlier report's, and the build's own (this checkout's).
        let commit = try #require(BuildCommit.describe())
        #expect(text.contains("against \(earlier) (commit 0123abc → \(commit)):"), "\(text)")
        let again = try String(contentsOfFile: directory + "-again/report.html", encoding: .utf8)
        #expect(again.contains("<h3 class=better>Better: 1</h3>") && again.contains("<h3 class=worse>Worse: 0</h3>"))
        #expect(again.contains("<h2>Against \(earlier) (commit 0123abc → \(commit))</h2>"))
        #expect(again.contains(" · commit \(commit) · "))
    }

    /// A recording with no labels to a benchmark in two commands: `dockctl label`, then
    /// `dockctl bench`. The proposal's faces are checked against the clip's hand-checked labels.
    @Test func aRecordingWithNoLabelsIsBenchmarkedInTwoCommands() throws {
        let directory = Fixtures.temporaryDirectory("label")
        let models = Fixtures.repositoryRoot + "/models"
        let out = directory + "/megamind.json"
        let label = try LabelCommand(arguments: [
            try Fixtures.mediaPath("opencv/Megamind.avi"), "--frames", "96", "--out", out, "--models", models,
        ])
        let said = try label.run { _ in }
        #expect(said.count == 1 && said[0].hasPrefix(out) && said[0].contains("proposed"), "\(said)")
        let scene = try BenchScene.load(path: out)
        let checked = try BenchScene.load(path: Fixtures.repositoryRoot + "/scenes/clips/megamind.json")
        guard case .video(_, let proposed) = scene.world, case .video(_, let truth) = checked.world else {
            Issue.record("not recordings")
            return
        }
        #expect(scene.truthIsProposed && !checked.truthIsProposed && !proposed.people.isEmpty)
        // Every checked face in the first 96 frames has a proposed box on it.
        var faces = 0
        var found = 0
        for frame in stride(from: 0, to: 96, by: 4) {
            let mine = proposed.groundTruth(sequence: UInt64(frame)).map(\.face)
            for face in truth.groundTruth(sequence: UInt64(frame)).map(\.face) {
                faces += 1
                if mine.contains(where: { $0.intersectionOverUnion(face) > 0.5 }) { found += 1 }
            }
        }
        #expect(faces > 20 && Double(found) >= 0.8 * Double(faces), "\(found) of \(faces) checked faces")

        let bench = try BenchCommand(arguments: [
            out, "--laws", "dock", "--frames", "96", "--report", directory + "/report", "--quiet", "--models", models,
            "--media", Fixtures.repositoryRoot + "/.cache/media",
        ])
        #expect(try bench.run { _ in }.contains("control law: dock"))
        let page = try String(contentsOfFile: directory + "/report/report.html", encoding: .utf8)
        #expect(page.contains("Proposed truth, not checked (dockctl label): megamind."))
        let summary = try String(contentsOfFile: directory + "/report/summary.md", encoding: .utf8)
        #expect(summary.contains("Proposed truth, not checked (dockctl label): megamind."))
    }

    @Test func benchRefusesABadSceneBeforeRunningAny() throws {
        let directory = Fixtures.temporaryDirectory("bench-bad")
        let bad = directory + "/bad.json"
        try #"{"world": {"generated": {"people": [{"id": 1, "path": [[0, 0]]}]}}, "gimbal": {"max_speed": 3}}"#
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let command = try BenchCommand(arguments: [Fixtures.repositoryRoot + "/scenes/steps.json", bad, "--quiet"])
        #expect { _ = try command.run { _ in } } throws: { error in
            (error as? SessionError)?.message
                == "scene \(bad): gimbal.max_speed: unknown key (misspelt? see docs/scenes.md)"
        }
    }

    /// The Python peer and OpenDock's detection path find the same faces in the same recording.
    @Test func pythonPeerFindsTheSameFaces() throws {
        var c = base
        c.maximumFrames = 30
        c.annotateOutput = false
        let video = Fixtures.temporaryDirectory("peer") + "/view.avi"
        _ = try SceneRun.run(try scene("two-people"), base: c, law: .dock, outputVideo: video)
        let model = Fixtures.repositoryRoot + "/models/face_detection_yunet_2022mar.onnx"
        let ours = try PeerRunResult(
            json: Data(try PeerRunResult.runOurs(video: video, modelPath: model, detectWidth: 320).jsonText.utf8))
        let python = try PeerRunResult(
            json: try PeerComparison.output(
                of: "/usr/bin/python3",
                [
                    Fixtures.repositoryRoot + "/Scripts/peer/yunet_peer.py", video, model, "--detect-width", "320",
                ]))
        #expect(ours.frames == 30 && python.frames == 30)
        #expect(ours.faces.count >= 30 && ours.frameMilliseconds.count == 30 && python.maxResidentKB > 0)
        var comparison = PeerComparison(video: video, ours: [ours], python: [python])
        let agreement = comparison.agreement
        #expect(
            agreement.oursMatched > 0.95 && agreement.pythonMatched > 0.95 && agreement.meanIoU > 0.95, "\(agreement)")
        #expect(comparison.text.contains("CPU ms per frame") && comparison.markdown.contains("| peak RSS MB |"))
        #expect(comparison.markdown.contains("| wall s | \(String(format: "%.2f", ours.wallSeconds)) |"))
        comparison.liveLatency = (15.5, 31.2)
        #expect(comparison.text.contains("capture→command p50 15.50 ms, p99 31.20 ms"))
        #expect(comparison.json["live_capture_command_p99_ms"] as? Double == 31.2)
        #expect(throws: SessionError.self) { try PeerComparison.liveLatency(fromSoakJSON: Data("{}".utf8)) }
    }

    @Test func peerOutputThatIsNotJSONIsAClearError() {
        #expect { _ = try PeerRunResult(json: Data("Traceback (most recent call last)".utf8)) } throws: { error in
            (error as? SessionError)?.message.contains("printed something other than its JSON result") == true
        }
    }
}

/// Speakers followed by ear on a generated scene with synthesized speech.
@Suite(.serialized, .tags(.unit), .notInFastRuns) struct SpeakerFollowingTests {
    var base: SessionConfiguration {
        var c = SceneBenchTests().base
        c.bodyDetector = .none
        return c
    }

    @Test func theCameraMovesToWhoeverSpeaks() throws {
        var c = base
        c.maximumFrames = 240  // 8 s: person 1 speaks 0–5 s, person 2 from 5 s
        let scene = try BenchScene.load(path: Fixtures.repositoryRoot + "/scenes/two-people.json")
        let ears = try SceneRun.run(scene, base: c, law: .dock)
        #expect(
            ears.audioNote?.hasPrefix("audio: 2 channels at 48000 Hz") == true, "\(String(describing: ears.audioNote))")
        let e = ears.evaluation
        // Person 2 is framed within 1.5 s of starting to speak, and from then on.
        let framedB = e.samples.indices.first { e.samples[$0].time > 5 && e.framed[$0].contains(2) }
        #expect(framedB.map { e.samples[$0].time < 6.5 } == true)
        #expect(e.samples.indices.filter { e.samples[$0].time > 6.5 }.allSatisfy { e.framed[$0] == [2] })
        #expect((e.speakerChoiceAccuracy ?? 0) > 0.75)
        // The same scene by vision alone never leaves the first choice.
        c.useAudio = false
        let eyes = try SceneRun.run(scene, base: c, law: .dock)
        #expect(eyes.audioNote == nil)
        #expect((eyes.evaluation.speakerChoiceAccuracy ?? 1) < (e.speakerChoiceAccuracy ?? 0) - 0.2)
    }

    /// Someone out of view speaks: the head turns towards the voice, framing nobody while it
    /// looks (the one framed before is not where it looks), and frames the talker once found.
    @Test func aVoiceFromOutOfViewTurnsTheHeadAndFramesNobodyUntilFound() throws {
        var c = base
        c.maximumFrames = 150
        let json = """
            {"world": {"horizontal_fov_deg": 110, "generated": {"width": 3200, "height": 1200, "fps": 30,
              "duration_s": 5, "people": [
                {"id": 1, "path": [[0, 0], [5, 0]], "face_height_px": 110},
                {"id": 2, "path": [[0, -42], [5, -42]], "face_height_px": 110, "brightness": 0.85,
                 "speaking": [[0.5, 5]]}]}},
             "camera": {"width": 1280, "height": 720, "horizontal_fov_deg": 60},
             "gimbal": {"max_speed_deg_s": 120, "max_accel_deg_s2": 480, "latency_ms": 40}}
            """
        let scene = try BenchScene.parse(Data(json.utf8), directory: ".", defaultName: "voice-out-of-view")
        let e = try SceneRun.run(scene, base: c, law: .dock).evaluation
        let times = e.samples.map(\.time)
        let found = try #require(e.framed.indices.first { e.framed[$0] == [2] }, "the talker is never framed")
        #expect(times[found] < 3, "framed at \(times[found]) s")
        #expect(e.framed[found...].allSatisfy { $0 == [2] })
        // Between the first framing of 1 and the talker's: a spell framing nobody, as the head turns.
        let searching = e.framed.indices.filter { times[$0] > 0.5 && $0 < found && e.framed[$0].isEmpty }
        #expect(searching.count >= 5, "\(searching.count) frames framing nobody")
        // The head turned towards the voice (the talker sits 42° left).
        #expect(e.samples[found].yaw < -10 * Double.pi / 180, "yaw \(e.samples[found].yaw) rad when found")
        #expect(e.falseSwitches == 0)
    }

    /// A pair wired the other way round mirrors every direction: read as wired, the head goes
    /// to the person opposite whoever speaks; told the order (`--mic-order right-left`), it
    /// follows the speaker as with a pair wired the usual way.
    @Test func aPairWiredTheOtherWayRoundIsReadAsConfigured() throws {
        var c = base
        c.maximumFrames = 240  // 8 s: person 1 speaks 0–5 s, person 2 from 5 s
        var scene = try BenchScene.load(path: Fixtures.repositoryRoot + "/scenes/two-people.json")
        scene.micWiringSwapped = true
        let misread = try SceneRun.run(scene, base: c, law: .dock).evaluation
        #expect((misread.speakerChoiceAccuracy ?? 1) < 0.5)
        c.microphones.order = .rightLeft
        let told = try SceneRun.run(scene, base: c, law: .dock)
        #expect(told.audioNote?.contains("right, left") == true, "\(String(describing: told.audioNote))")
        let e = told.evaluation
        let framedB = e.samples.indices.first { e.samples[$0].time > 5 && e.framed[$0].contains(2) }
        #expect(framedB.map { e.samples[$0].time < 6.5 } == true)
        #expect((e.speakerChoiceAccuracy ?? 0) > 0.75)
    }

    /// The same wiring found at run time from lips: two people with talking faces take turns;
    /// configured the wrong way round, the run says so in one line within seconds; configured
    /// right, it confirms the order and says nothing.
    @Test func aPairWiredTheOtherWayRoundIsFoundFromLips() throws {
        var c = base
        c.maximumFrames = 240  // 8 s: a turn each and the start of the next
        let talking = try BenchScene.load(path: Fixtures.repositoryRoot + "/scenes/mics-two-talking.json")
        let right = try SceneRun.run(talking, base: c, law: .dock).summary
        #expect(right.channelOrder?.verdict == .asConfigured)
        #expect(!right.report().contains("wired the other way round"))
        c.microphones.order = .rightLeft
        let wrong = try SceneRun.run(talking, base: c, law: .dock).summary
        let check = try #require(wrong.channelOrder)
        let decidedAt = try #require(check.decidedAt)
        #expect(check.verdict == .swapped && decidedAt < 7, "\(check)")
        #expect(wrong.report().contains("\nmicrophones: wired the other way round"))
    }

    @Test func trackingStatesCarrySpeakingConfidence() async throws {
        var c = base
        c.maximumFrames = 90  // 3 s: person 1 is speaking
        let configuration = try BenchScene.load(path: Fixtures.repositoryRoot + "/scenes/two-people.json")
            .configuration(base: c)
        let session = try Pipeline(simulating: configuration)
        var states = session.accessory.trackingStates.makeAsyncIterator()
        _ = try session.run()
        var confidences: [Double] = []
        for _ in 0..<4 {  // the newest four states stay buffered
            guard let state = await states.next() else { break }
            for case .person(let person) in state.trackedSubjects {
                confidences.append(person.speakingConfidence ?? -1)
            }
        }
        #expect(confidences.contains { $0 > 0.5 } && confidences.allSatisfy { $0 >= 0 }, "\(confidences)")
    }

    /// A client's selection frames whom it chose, and the states still say who speaks: a
    /// program choosing by `speakingConfidence` goes on seeing it after its first choice.
    @Test func aSelectionKeepsSpeakingConfidenceInTheStates() async throws {
        var c = base
        c.maximumFrames = 90  // 3 s: person 1 is speaking
        let configuration = try BenchScene.load(path: Fixtures.repositoryRoot + "/scenes/two-people.json")
            .configuration(base: c)
        let session = try Pipeline(simulating: configuration)
        let dock = session.accessory
        let id = dock.trackingBroadcast.subscribe { state in
            if let first = state.trackedSubjects.first, dock.lockedSubjects.isEmpty {
                try? dock.lockSubjects([first.identifier])
            }
        }
        defer { dock.trackingBroadcast.unsubscribe(id) }
        var states = dock.trackingStates.makeAsyncIterator()
        _ = try session.run()
        #expect(dock.lockedSubjects.count == 1)
        var confidences: [Double] = []
        for _ in 0..<4 {
            guard let state = await states.next() else { break }
            for case .person(let person) in state.trackedSubjects {
                confidences.append(person.speakingConfidence ?? -1)
            }
        }
        #expect(confidences.contains { $0 > 0.5 } && confidences.allSatisfy { $0 >= 0 }, "\(confidences)")
    }

    /// `selectSubjects` with several ids frames them together (DockKit's group), not the first.
    @Test func severalSelectedSubjectsAreFramedTogether() throws {
        var c = base
        c.maximumFrames = 60
        let configuration = try BenchScene.load(path: Fixtures.repositoryRoot + "/scenes/two-people.json")
            .configuration(base: c)
        let session = try Pipeline(simulating: configuration)
        let dock = session.accessory
        // As soon as both people are tracked, a client selects both.
        let id = dock.trackingBroadcast.subscribe { state in
            let ids = state.trackedSubjects.map(\.identifier)
            if ids.count == 2 && dock.lockedSubjects.isEmpty { try? dock.lockSubjects(ids) }
        }
        defer { dock.trackingBroadcast.unsubscribe(id) }
        _ = try session.run()
        #expect(dock.lockedSubjects.count == 2)
        let (snapshot, _) = try #require(session.monitor.latestSnapshot())
        #expect(Set(snapshot.framed) == Set(dock.lockedSubjects), "both framed: \(snapshot.framed)")
    }

    @Test func aBadAudioFileLeavesTrackingOnVisionAlone() throws {
        var c = base
        c.maximumFrames = 20
        let wav = Fixtures.temporaryDirectory("audio") + "/bad.wav"
        try Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVEnothing".utf8).write(to: URL(fileURLWithPath: wav))
        c.audioFile = wav
        let session = try Pipeline(simulating: c)
        #expect(
            session.audioNote?.contains("audio off, tracking on vision alone") == true,
            "\(String(describing: session.audioNote))")
        let summary = try session.run()
        #expect(summary.frames == 20 && summary.rateContractErrors == 0)
    }
}
