import Capture
import DockCore
import Foundation
import Imaging
import Testing
import TestSupport
@testable import Vision

/// The people in Debian opencv-doc's messi5.jpg (548×342), labelled by hand.
enum MessiLabel {
    static let face = PixelRect(x: 222, y: 86, width: 36, height: 44)
    static let body = PixelRect(x: 68, y: 60, width: 390, height: 276)
}

@Suite struct DNNDetectorTests {
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
        let ssd = try SSDPersonDetector(weightsPath: registry.resolve("ssdlite-person"), graphPath: registry.resolve("ssdlite-person-graph"))
        let player = try ssd.detect(try messi())
        #expect(player.contains { $0.kind == .humanBody && $0.rect.intersectionOverUnion(MessiLabel.body) > 0.7 })
        let astronaut = try ssd.detect(try Fixtures.photo("astronaut.png"))
        #expect(astronaut.contains { $0.rect.intersectionOverUnion(AstronautLabel.face) > 0 && $0.rect.height > 3 * AstronautLabel.face.height })
        #expect(try ssd.detect(try Fixtures.photo("coffee.png")).isEmpty)
    }

    @Test func yoloxReportsPeopleAsBodiesAndChosenClassesAsObjects() throws {
        let yolox = try YOLOXDetector(modelPath: registry.resolve("yolox-nano"), objectClasses: ["cup"])
        let coffee = try yolox.detect(try Fixtures.photo("coffee.png"))
        #expect(coffee.count == 1 && coffee[0].kind == .object && coffee[0].label == "cup" && coffee[0].score > 0.6)
        let player = try yolox.detect(try messi())
        #expect(player.first { $0.score > 0.6 }.map { $0.kind == .humanBody && $0.rect.intersectionOverUnion(MessiLabel.body) > 0.7 } == true)
        #expect(throws: DetectorError.self) { try YOLOXDetector(modelPath: registry.resolve("yolox-nano"), objectClasses: ["unicorn"]) }
    }

    /// HOG finds upright walkers in opencv-doc's vtest.avi; each of its confident boxes is a
    /// person one of the networks finds too.
    @Test func hogFindsPedestriansTheNetworkAgreesWith() throws {
        let video = try VideoFileSource(path: try Fixtures.mediaPath("opencv/vtest.avi"))
        let frame = try #require(try video.nextFrame())
        let hog = try HOGPersonDetector(inputWidth: frame.size.width)
        let ssd = try SSDPersonDetector(weightsPath: registry.resolve("ssdlite-person"), graphPath: registry.resolve("ssdlite-person-graph"))
        let walkers = try hog.detect(frame).filter { $0.score > 0.6 }
        let yolox = try YOLOXDetector(modelPath: registry.resolve("yolox-nano"))
        let people = try ssd.detect(frame) + yolox.detect(frame).filter { $0.score > 0.5 }
        #expect(walkers.count >= 2)
        for w in walkers { #expect(people.contains { w.rect.contains(x: $0.rect.x + $0.rect.width / 2, y: $0.rect.y + $0.rect.height / 2) && $0.rect.intersectionOverUnion(w.rect) > 0.2 }, "\(w.rect)") }
    }
}
