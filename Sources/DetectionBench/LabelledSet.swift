import Capture
import DockCore
import Foundation
import Imaging
import Pipeline
import Simulation

/// An image with the boxes a perfect detector would report.
public struct LabelledImage {
    public var name: String
    /// "generated" or "photos".
    public var set: String
    public var frame: Frame
    public var faces: [PixelRect]
    /// nil where bodies are not labelled (the generated scenes' head-and-shoulders sprite).
    public var bodies: [PixelRect]?
    /// Regions with people nobody labelled (a crowd): detections there are not counted.
    public var ignored: [PixelRect] = []
}

/// The project's labelled images: 1280×720 views of the generated scene with the portrait at
/// several face sizes and places (exact boxes from the scene's geometry), and real photos from
/// packages with boxes labelled by hand.
public enum LabelledSet {
    public static let generatedFaceHeights: [Double] = [24, 40, 64, 96, 160]
    public static let viewsPerSize = 8

    public static func generated(mediaDirectory: String, seed: UInt64 = 11) throws(SessionError) -> [LabelledImage] {
        var images: [LabelledImage] = []
        var random = SeededGenerator(seed: seed)
        let view = PixelSize(width: 1280, height: 720)
        for height in generatedFaceHeights {
            var configuration = SceneConfiguration()
            configuration.faceHeight = height
            let scene: GeneratedScene
            do {
                scene = try GeneratedScene(
                    photos: ScenePhotos(mediaDirectory: mediaDirectory), configuration: configuration)
            } catch {
                throw SessionError(error.message)
            }
            for k in 0..<viewsPerSize {
                let sequence = UInt64(k * (scene.frameCount - 1) / max(1, viewsPerSize - 1))
                let world: Frame
                do { world = try scene.render(sequence: sequence) } catch { throw SessionError(error.message) }
                guard let face = scene.groundTruth(sequence: sequence).first?.face else { continue }
                // A viewport with the face somewhere inside it, not always in the middle.
                let x = min(
                    max(0, face.midX - Double(view.width) * Double.random(in: 0.15...0.85, using: &random)),
                    Double(world.width - view.width))
                let y = min(
                    max(0, face.midY - Double(view.height) * Double.random(in: 0.2...0.8, using: &random)),
                    Double(world.height - view.height))
                let origin = PixelRect(
                    x: x.rounded(), y: y.rounded(), width: Double(view.width), height: Double(view.height))
                guard let (crop, at) = world.cropped(to: origin) else { continue }
                let shifted = PixelRect(x: face.x - at.x, y: face.y - at.y, width: face.width, height: face.height)
                images.append(
                    LabelledImage(
                        name: "scene face \(Int(height)) px #\(k)", set: "generated", frame: crop,
                        faces: [shifted], bodies: nil))
            }
        }
        return images
    }

    /// Hand labels for photos from scikit-image (astronaut, camera, coffee) and Debian's
    /// opencv-doc (messi5). Bodies are the visible person, cut where the photo cuts it.
    public static func photos(mediaDirectory: String) throws(SessionError) -> [LabelledImage] {
        let labels: [(file: String, faces: [PixelRect], bodies: [PixelRect], ignored: [PixelRect])] = [
            (
                "astronaut.png", [PixelRect(x: 172, y: 52, width: 104, height: 128)],
                [PixelRect(x: 5, y: 25, width: 365, height: 487)], []
            ),
            (
                "camera.png", [PixelRect(x: 188, y: 102, width: 70, height: 92)],
                [PixelRect(x: 0, y: 64, width: 305, height: 448)], []
            ),
            // The crowd behind the player is not labelled.
            (
                "opencv/messi5.jpg", [PixelRect(x: 222, y: 86, width: 36, height: 44)],
                [PixelRect(x: 68, y: 60, width: 390, height: 276)],
                [PixelRect(x: 0, y: 0, width: 548, height: 265)]
            ),
            ("coffee.png", [], [], []),
        ]
        var images: [LabelledImage] = []
        for label in labels {
            do {
                let frame = try Frame.read(contentsOf: mediaDirectory + "/" + label.file)
                images.append(
                    LabelledImage(
                        name: label.file, set: "photos", frame: frame, faces: label.faces, bodies: label.bodies,
                        ignored: label.ignored))
            } catch {
                throw SessionError("cannot read \(mediaDirectory)/\(label.file): \(error) (run Scripts/setup)")
            }
        }
        return images
    }
}

extension LabelledSet {
    /// Hand labels for frames of Debian opencv-doc's Megamind.avi (720×528, animated people at a
    /// restaurant table): faces forehead to chin, bodies as far as the frame shows them.
    static let clipLabels: [(frame: Int, faces: [PixelRect], bodies: [PixelRect])] = [
        (
            30, [PixelRect(x: 235, y: 160, width: 128, height: 160), PixelRect(x: 445, y: 172, width: 82, height: 90)],
            [PixelRect(x: 120, y: 30, width: 280, height: 498), PixelRect(x: 365, y: 150, width: 185, height: 250)]
        ),
        // The woman on the left is seen from behind: a body, no face.
        (
            120, [PixelRect(x: 388, y: 140, width: 172, height: 215)],
            [PixelRect(x: 335, y: 5, width: 385, height: 523), PixelRect(x: 0, y: 0, width: 245, height: 528)]
        ),
        (200, [PixelRect(x: 268, y: 70, width: 262, height: 330)], [PixelRect(x: 110, y: 0, width: 610, height: 528)]),
    ]

    public static func clips(mediaDirectory: String) throws(SessionError) -> [LabelledImage] {
        let path = mediaDirectory + "/opencv/Megamind.avi"
        let source: VideoFileSource
        do { source = try VideoFileSource(path: path) } catch {
            throw SessionError("\(error.message) (run Scripts/setup)")
        }
        var images: [LabelledImage] = []
        var index = 0
        for label in clipLabels {
            var frame: Frame?
            while index <= label.frame {
                do { frame = try source.nextFrame() } catch { throw SessionError("\(path): \(error.message)") }
                guard frame != nil else { throw SessionError("\(path) ends before frame \(label.frame)") }
                index += 1
            }
            images.append(
                LabelledImage(
                    name: "Megamind.avi #\(label.frame)", set: "clips", frame: frame!, faces: label.faces,
                    bodies: label.bodies))
        }
        return images
    }
}
