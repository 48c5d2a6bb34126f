import BenchRunner
import Capture
import DockCore
import Foundation
import Motion
import Perception
import Pipeline
import SceneFiles
import TestSupport
import Testing

@testable import dockctl_tools

/// `dockctl doctor` with a setup named, trying it: an emulated VISCA head on a pseudo-terminal
/// (one that turns as told, one whose reports run against its drive), a scripted webcam
/// streamed, a simulated head mounted inverted watched through its camera, and a microphone
/// pair wired the other way round heard while people with talking faces take turns.
@Suite(.serialized, .tags(.device)) struct DoctorTrialTests {
    var quiet: DoctorCommand.Surroundings {
        var s = DoctorCommand.Surroundings()
        let unplugged = CameraFixtures.webcam()
        unplugged.unplug()
        s.video = unplugged
        s.root = Fixtures.temporaryDirectory("doctor-trials")
        s.models = ModelRegistry(searchDirectories: [Fixtures.repositoryRoot + "/models"])
        s.controlSocket = s.root + "/dockd.sock"
        return s
    }

    func tried(_ options: [String], surroundings: DoctorCommand.Surroundings? = nil) throws -> [DoctorCommand.Finding] {
        let trials = try DoctorCommand.trials(options, listenSeconds: 8)
        return DoctorCommand(surroundings: surroundings ?? quiet, trials: trials).tried()
    }

    @Test func aViscaHeadThatAnswersAndTurnsAsToldIsOk() throws {
        let camera = VISCACamera()
        let port = try SerialPeer { camera.handle($0) }
        let findings = try tried(["--gimbal", "visca:\(port.path)"])
        #expect(findings.count == 2, "\(DoctorCommand.describe(findings))")
        for (finding, axis) in zip(findings, ["pan", "tilt"]) {
            #expect(
                finding.status == .ok
                    && finding.line.hasPrefix(
                        "head visca:\(port.path)@9600 \(axis): answers and turns as told (sent +3.0°, read +"),
                "\(finding.line)")
        }
        // It turned back where it started.
        #expect(abs(camera.pose.y) < 0.01 && abs(camera.pose.x) < 0.01, "\(camera.pose)")
    }

    @Test func aHeadWhoseReportsRunAgainstItsDriveIsAProblemWithItsFix() throws {
        let camera = VISCACamera()
        camera.reportsPanReversed = true
        let port = try SerialPeer { camera.handle($0) }
        let findings = try tried(["--gimbal", "visca:\(port.path)"])
        let pan = try #require(findings.first)
        #expect(
            pan.status == .problem
                && pan.line.contains("pan: reads its turns the opposite way from its commands (sent +3.0°, read -"),
            "\(pan.line)")
        #expect(pan.line.contains("set it right in the controller's own configuration"))
        #expect(findings.last?.status == .ok && findings.last?.line.contains("tilt: answers and turns as told") == true)
    }

    @Test func aHeadThatDoesNotAnswerSaysWhatToCheck() throws {
        let camera = VISCACamera()
        camera.muted = true
        let port = try SerialPeer { camera.handle($0) }
        let findings = try tried(["--gimbal", "visca:\(port.path)"])
        #expect(findings.count == 1 && findings[0].status == .problem, "\(DoctorCommand.describe(findings))")
        #expect(
            findings[0].line.hasPrefix("head visca:\(port.path)@9600: ")
                && findings[0].line.contains("check its power and cable"))
    }

    @Test func aCameraIsStreamedForItsRealRate() throws {
        let webcam = CameraFixtures.webcam()
        webcam.append(Array(repeating: .frame(try CameraFixtures.jpeg()), count: 100))
        var surroundings = quiet
        surroundings.video = webcam
        let ok = try tried(["--camera", webcam.path, "--size", "512x512", "--fps", "30"], surroundings: surroundings)
        #expect(ok.count == 1 && ok[0].status == .ok, "\(DoctorCommand.describe(ok))")
        #expect(
            ok[0].line.hasPrefix("camera \(webcam.path) streams: 30.0 fps")
                && ok[0].line.contains("of the 30 asked at 512x512"), "\(ok[0].line)")
        // A camera that flags frames and loses some.
        let flaky = CameraFixtures.webcam()
        let jpeg = try CameraFixtures.jpeg()
        flaky.append(
            Array(repeating: .frame(jpeg), count: 20) + [.errorFrame(jpeg), .lost(3)]
                + Array(repeating: .frame(jpeg), count: 80))
        surroundings.video = flaky
        let warned = try tried(
            ["--camera", flaky.path, "--size", "512x512", "--fps", "30"], surroundings: surroundings)
        #expect(warned.first?.status == .warning, "\(DoctorCommand.describe(warned))")
        #expect(
            warned.first?.line.contains("1 of 90 frames damaged or flagged and 3 lost by the driver") == true,
            "\(warned.first?.line ?? "")")
        // One frame lost in three seconds is a busy moment, said but not warned of; two are warned of.
        for (gaps, status) in [(1, DoctorCommand.Status.ok), (2, .warning)] {
            let hiccup = CameraFixtures.webcam()
            hiccup.append(
                Array(repeating: .frame(jpeg), count: 40) + [.lost(gaps)] + Array(repeating: .frame(jpeg), count: 60))
            surroundings.video = hiccup
            let found = try tried(
                ["--camera", hiccup.path, "--size", "512x512", "--fps", "30"], surroundings: surroundings)
            #expect(found.first?.status == status, "\(DoctorCommand.describe(found))")
            #expect(found.first?.line.contains("\(gaps) lost by the driver") == true, "\(found.first?.line ?? "")")
        }
    }
}

/// The doctor's checks that watch a picture or listen through a whole scene: in lock-step.
@Suite(.serialized, .tags(.unit), .notInFastRuns) struct DoctorSceneTrialTests {
    let street = Fixtures.repositoryRoot + "/.cache/media/opencv/vtest.avi"

    func headLines(_ extra: [String]) throws -> [DoctorCommand.Finding] {
        let trials = try DoctorCommand.trials(
            [
                "--source", street, "--gimbal", "sim", "--view", "640x360", "--view-hfov", "52",
                "--media", Fixtures.repositoryRoot + "/.cache/media", "--bodies", "none",
            ] + extra, listenSeconds: 8)
        return DoctorCommand(surroundings: DoctorTrialTests().quiet, trials: trials).tried().filter {
            $0.line.hasPrefix("head")
        }
    }

    @Test func aHeadMountedInvertedIsSeenInThePictureWithItsFix() throws {
        let wrong = try headLines(["--sim-mount", "pan-inverted"])
        #expect(wrong.count == 2, "\(DoctorCommand.describe(wrong))")
        #expect(
            wrong[0].status == .problem
                && wrong[0].line.hasPrefix("head pan: turns the camera the other way from --pan-direction normal"),
            "\(wrong[0].line)")
        #expect(
            wrong[0].line.hasSuffix(
                "start dockd with --pan-direction inverted (dockctl calibrate --write FILE saves it)"))
        #expect(
            wrong[1].status == .ok
                && wrong[1].line.hasPrefix("head tilt: turns the camera as configured, --tilt-direction normal"))
        let configured = try headLines(["--sim-mount", "pan-inverted", "--pan-direction", "inverted"])
        #expect(configured.allSatisfy { $0.status == .ok }, "\(DoctorCommand.describe(configured))")
        #expect(
            configured.first?.line.hasPrefix("head pan: turns the camera as configured, --pan-direction inverted")
                == true)
    }

    @Test func aPairWiredTheOtherWayRoundIsHeardWithItsFix() throws {
        var c = SessionConfiguration()
        c.mediaDirectory = Fixtures.repositoryRoot + "/.cache/media"
        c.modelsDirectory = Fixtures.repositoryRoot + "/models"
        c.realTime = false
        var scene = try BenchScene.load(path: Fixtures.repositoryRoot + "/scenes/mics-two-talking.json")
        scene.micWiringSwapped = true
        var surroundings = DoctorTrialTests().quiet
        surroundings.simulatedListening = scene.configuration(base: c)
        let swapped = DoctorCommand(surroundings: surroundings).tried()
        #expect(swapped.count == 1 && swapped[0].status == .problem, "\(DoctorCommand.describe(swapped))")
        #expect(
            swapped[0].line.hasSuffix(
                "the pair is wired the other way round from --mic-order left-right; start again with --mic-order right-left"
            ))
        scene.micWiringSwapped = false
        surroundings.simulatedListening = scene.configuration(base: c)
        let right = DoctorCommand(surroundings: surroundings).tried()
        #expect(right.count == 1 && right[0].status == .ok, "\(DoctorCommand.describe(right))")
        #expect(right[0].line.hasSuffix("wired as --mic-order left-right says"))
    }
}
