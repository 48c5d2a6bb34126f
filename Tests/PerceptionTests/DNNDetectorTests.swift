import Capture
import DockCore
import Foundation
import Imaging
import TestSupport
import Testing

@testable import Perception

/// The people in Debian opencv-doc's messi5.jpg (548×342), labelled by hand.
enum MessiLabel {
    static let face = PixelRect(x: 222, y: 86, width: 36, height: 44)
    static let body = PixelRect(x: 68, y: 60, width: 390, height: 276)
}

@Suite(.tags(.unit)) struct DNNDetectorTests {
    let registry = ModelRegistry(searchDirectories: Fixtures.modelDirectories)
    func messi() throws -> Frame { try Frame.read(contentsOf: try Fixtures.mediaPath("opencv/messi5.jpg")) }

    @Test func rfbFindsBothFaces() throws {
        let rfb = try RFBFaceDetector(modelPath: registry.resolve("rfb320"))
        let astronaut = try rfb.detect(try Fixtures.photo("astronaut.png"))
        #expect(astronaut.count == 1 && astronaut[0].rect.intersectionOverUnion(AstronautLabel.face) > 0.6)
        let player = try rfb.detect(try messi())
        #expect(player.count == 1 && player[0].rect.intersectionOverUnion(MessiLabel.face) > 0.5)
        #expect(try rfb.detect(try Fixtures.photo("coffee.png")).isEmpty)
    }

    @Test func ssdliteFindsPeopleAndNothingInACup() throws {
        let ssd = try SSDPersonDetector(
            weightsPath: registry.resolve("ssdlite-person"), graphPath: registry.resolve("ssdlite-person-graph"))
        let player = try ssd.detect(try messi())
        #expect(player.contains { $0.kind == .humanBody && $0.rect.intersectionOverUnion(MessiLabel.body) > 0.7 })
        let astronaut = try ssd.detect(try Fixtures.photo("astronaut.png"))
        #expect(
            astronaut.contains {
                $0.rect.intersectionOverUnion(AstronautLabel.face) > 0
                    && $0.rect.height > 3 * AstronautLabel.face.height
            })
        #expect(try ssd.detect(try Fixtures.photo("coffee.png")).isEmpty)
    }

    @Test func yoloxReportsPeopleAsBodiesAndChosenClassesAsObjects() throws {
        let yolox = try YOLOXDetector(modelPath: registry.resolve("yolox-nano"), objectClasses: ["cup"])
        let coffee = try yolox.detect(try Fixtures.photo("coffee.png"))
        #expect(coffee.count == 1 && coffee[0].kind == .object && coffee[0].label == "cup" && coffee[0].score > 0.6)
        let player = try yolox.detect(try messi())
        #expect(
            player.first { $0.score > 0.6 }.map {
                $0.kind == .humanBody && $0.rect.intersectionOverUnion(MessiLabel.body) > 0.7
            } == true)
        #expect(throws: DetectorError.self) {
            try YOLOXDetector(modelPath: registry.resolve("yolox-nano"), objectClasses: ["unicorn"])
        }
    }

    /// HOG finds upright walkers in opencv-doc's vtest.avi; each of its confident boxes is a
    /// person one of the networks finds too.
    @Test func hogFindsPedestriansTheNetworkAgreesWith() throws {
        let video = try VideoFileSource(path: try Fixtures.mediaPath("opencv/vtest.avi"))
        let frame = try #require(try video.nextFrame())
        let hog = try HOGPersonDetector(inputWidth: frame.size.width)
        let ssd = try SSDPersonDetector(
            weightsPath: registry.resolve("ssdlite-person"), graphPath: registry.resolve("ssdlite-person-graph"))
        let walkers = try hog.detect(frame).filter { $0.score > 0.6 }
        let yolox = try YOLOXDetector(modelPath: registry.resolve("yolox-nano"))
        let people = try ssd.detect(frame) + yolox.detect(frame).filter { $0.score > 0.5 }
        #expect(walkers.count >= 2)
        for w in walkers {
            #expect(
                people.contains {
                    w.rect.contains(x: $0.rect.x + $0.rect.width / 2, y: $0.rect.y + $0.rect.height / 2)
                        && $0.rect.intersectionOverUnion(w.rect) > 0.2
                }, "\(w.rect)")
        }
    }
}

@Suite(.tags(.unit)) struct DetectionStageTests {
    let registry = ModelRegistry(searchDirectories: Fixtures.modelDirectories)

    /// A network that loads but throws inside OpenCV on every forward pass (YOLOX's graph asked
    /// for RFB's output names): the stage reports and counts it; the faces still come back.
    @Test func detectorThrowingInsideOpenCVLosesOnlyItsPart() throws {
        let broken = try RFBFaceDetector(modelPath: registry.resolve("yolox-nano"))
        let stage = DetectionStage(faces: try YuNetFaceDetector(modelPath: registry.resolve("yunet")), bodies: broken)
        stage.slowDelivery = .after(seconds: 0, waits: true)
        var photo = try Fixtures.photo("astronaut.png")
        for i in 0..<3 {
            photo.stamp = FrameStamp(sequence: UInt64(i), time: MonotonicInstant(seconds: Double(i)))
            let result = stage.detect(photo)
            #expect(result.plan.bodies)
            #expect(result.errors.count == 1 && result.errors[0].detector == "rfb320")
            #expect(result.detections.filter { $0.kind == .humanFace }.count == 1)
        }
        #expect(stage.failures["rfb320"] == 3)
    }

    @Test func scheduleRunsBodiesAFewTimesASecondAndLooksAgainAtSmallFaces() {
        var schedule = DetectionSchedule()
        var bodyFrames = 0
        for i in 0..<30 {
            let plan = schedule.plan(
                at: MonotonicInstant(seconds: Double(i) / 30), facesSeenLately: true, tracking: [],
                hasBodyDetector: true, hasObjectDetector: false)
            if plan.bodies { bodyFrames += 1 }
            #expect(!plan.objects && plan.secondLooks.isEmpty)
        }
        #expect(bodyFrames == 5)
        // Without faces, bodies twice as often.
        bodyFrames = 0
        for i in 30..<60 {
            if schedule.plan(
                at: MonotonicInstant(seconds: Double(i) / 30), facesSeenLately: false, tracking: [],
                hasBodyDetector: true, hasObjectDetector: false
            ).bodies {
                bodyFrames += 1
            }
        }
        #expect(bodyFrames == 10)
        let small = DetectionSchedule.Focus(
            rect: NormalizedRect(x: 0.5, y: 0.5, width: 0.02, height: 0.03), kind: .humanFace, hasFace: false)
        let big = DetectionSchedule.Focus(
            rect: NormalizedRect(x: 0.1, y: 0.5, width: 0.2, height: 0.3), kind: .humanFace, hasFace: false)
        let faceless = DetectionSchedule.Focus(
            rect: NormalizedRect(x: 0.7, y: 0.1, width: 0.1, height: 0.5), kind: .humanBody, hasFace: false)
        let linked = DetectionSchedule.Focus(
            rect: NormalizedRect(x: 0.1, y: 0.1, width: 0.1, height: 0.5), kind: .humanBody, hasFace: true)
        let looks = schedule.plan(
            at: MonotonicInstant(seconds: 3), facesSeenLately: true, tracking: [small, big, faceless, linked],
            hasBodyDetector: false, hasObjectDetector: false
        ).secondLooks
        #expect(looks.count == 2)
        #expect(looks.contains { abs($0.midX - 0.51) < 1e-9 && $0.width > 0.02 }, "around the small face")
        #expect(looks.contains { $0.y > 0.3 && abs($0.midX - 0.75) < 1e-9 }, "where the faceless body's head is")
    }

    @Test func bodiesOnNeedRunSeldomWhileFacesTellTheWholeStory() {
        var schedule = ComputerProfile.small.schedule
        let big = DetectionSchedule.Focus(
            rect: NormalizedRect(x: 0.1, y: 0.5, width: 0.2, height: 0.3), kind: .humanFace, hasFace: false)
        let linked = DetectionSchedule.Focus(
            rect: NormalizedRect(x: 0.1, y: 0.1, width: 0.2, height: 0.6), kind: .humanBody, hasFace: true)
        let turnedAway = DetectionSchedule.Focus(
            rect: NormalizedRect(x: 0.6, y: 0.1, width: 0.2, height: 0.6), kind: .humanBody, hasFace: false)
        let far = DetectionSchedule.Focus(
            rect: NormalizedRect(x: 0.5, y: 0.5, width: 0.02, height: 0.03), kind: .humanFace, hasFace: false)
        /// Body runs over `seconds` at 15 frames a second from `start`.
        func bodyRuns(from start: Double, seconds: Double, tracking: [DetectionSchedule.Focus]) -> Int {
            (0..<Int(seconds * 15)).filter { i in
                schedule.plan(
                    at: MonotonicInstant(seconds: start + Double(i) / 15), facesSeenLately: true, tracking: tracking,
                    hasBodyDetector: true, hasObjectDetector: false
                ).bodies
            }.count
        }
        // At first nobody is confirmed: bodies at the full rate (5 a second) through the hold.
        #expect(bodyRuns(from: 0, seconds: 2, tracking: []) == 10)
        // Everyone told by a big face (their bodies linked): once a second, after the 2 s hold.
        #expect(bodyRuns(from: 2, seconds: 2, tracking: [big, linked]) == 10)
        #expect(bodyRuns(from: 4, seconds: 4, tracking: [big, linked]) == 4)
        // Someone turned away, or a face too small: the full rate again.
        #expect(bodyRuns(from: 8, seconds: 2, tracking: [big, linked, turnedAway]) == 10)
        #expect(bodyRuns(from: 10, seconds: 3, tracking: [big, linked]) == 11)
        #expect(bodyRuns(from: 13, seconds: 2, tracking: [big, far]) == 10)
        // A subject lost holds the full rate for 2 s after.
        _ = bodyRuns(from: 15, seconds: 3, tracking: [big, linked])
        #expect(bodyRuns(from: 18, seconds: 2, tracking: [big]) == 10)
        #expect(bodyRuns(from: 20, seconds: 3, tracking: [big]) == 3)
        // The desktop profile keeps the fixed rate whatever the faces say.
        schedule = ComputerProfile.desktop.schedule
        #expect(bodyRuns(from: 30, seconds: 4, tracking: [big, linked]) == 20)
    }

    /// A face too small for the reduced image is found by a second look around it.
    @Test func secondLookFindsASmallFace() throws {
        let photo = try Fixtures.photo("astronaut.png")
        // The astronaut shrunk to a 26 px face in the middle of a 1280×720 grey frame.
        let small = try photo.resized(to: PixelSize(width: 104, height: 104))
        var frame = Frame(
            stamp: FrameStamp(sequence: 0, time: .zero), width: 1280, height: 720, format: .bgr, fill: 128)
        try frame.blend(small, alpha: nil, into: PixelRect(x: 600, y: 300, width: 104, height: 104))
        let yunet = try YuNetFaceDetector(modelPath: registry.resolve("yunet"))
        #expect(try yunet.detect(frame).isEmpty, "too small at 320 wide")
        let stage = DetectionStage(faces: yunet)
        let face = ImageCoordinates(size: frame.size).normalized(PixelRect(x: 634, y: 310, width: 26, height: 32))
        let result = stage.detect(
            frame, tracking: [DetectionSchedule.Focus(rect: face, kind: .humanFace, hasFace: false)])
        #expect(result.plan.secondLooks.count == 1)
        let found = try #require(result.detections.first)
        #expect(
            found.rect.intersectionOverUnion(PixelRect(x: 634, y: 310, width: 26, height: 32)) > 0.4, "\(found.rect)")
        #expect(found.imageSize == frame.size)
    }
}
