import Foundation
import DockCore
import Imaging

public struct SceneConfiguration: Sendable, Hashable {
    public var worldSize = PixelSize(width: 3200, height: 1200)
    public var worldHorizontalFieldOfView = 110.0   // degrees
    public var frameRate = 30.0
    /// Height of the subject's face in world pixels.
    public var faceHeight = 120.0
    public var script = SceneScript.walk

    public init() {}
}

/// A subject's true face box in one frame, in world pixels.
public struct GroundTruthSubject: Sendable, Hashable {
    public var id: Int
    public var face: PixelRect
}

/// A wide "recorded video" made from real photos: a room wall with pictures on it and a real
/// face (the astronaut portrait) moving along a script, with its exact face box in every frame.
public final class GeneratedScene: FrameSource {
    public let configuration: SceneConfiguration
    public let worldIntrinsics: CameraIntrinsics
    public private(set) var droppedFrames = 0
    private let background: Frame
    private let portrait: Frame
    private let portraitAlpha: Frame
    private var sequence: UInt64 = 0

    public init(photos: ScenePhotos, configuration: SceneConfiguration = SceneConfiguration()) throws(FrameSourceError) {
        self.configuration = configuration
        worldIntrinsics = CameraIntrinsics(horizontalFieldOfView: configuration.worldHorizontalFieldOfView * .pi / 180,
                                           size: configuration.worldSize)
        do {
            let full = try Frame.read(contentsOf: photos.portrait)
            guard let (head, _) = full.cropped(to: ScenePhotos.portraitCrop),
                  head.size == PixelSize(width: Int(ScenePhotos.portraitCrop.width), height: Int(ScenePhotos.portraitCrop.height))
            else { throw FrameSourceError("\(photos.portrait) is smaller than the portrait crop \(ScenePhotos.portraitCrop)") }
            portrait = head
            portraitAlpha = try Self.ellipseMask(size: portrait.size)
            background = try Self.room(size: configuration.worldSize, photos: photos)
        } catch {
            throw FrameSourceError("cannot build the scene from photos: \(error) (run Scripts/setup)")
        }
    }

    public var summary: String {
        "generated scene \(configuration.worldSize) @ \(Int(configuration.frameRate)) fps, \(configuration.script.duration) s"
    }
    public var size: PixelSize { configuration.worldSize }
    public var nominalFrameRate: Double { configuration.frameRate }
    public var frameCount: Int { Int((configuration.script.duration * configuration.frameRate).rounded(.down)) + 1 }

    public func time(ofFrame sequence: UInt64) -> Double { Double(sequence) / configuration.frameRate }

    public func nextFrame() throws(FrameSourceError) -> Frame? {
        guard sequence < UInt64(frameCount) else { return nil }
        defer { sequence += 1 }
        return try render(sequence: sequence)
    }

    /// The world frame for a sequence number (frames are a pure function of it).
    public func render(sequence: UInt64) throws(FrameSourceError) -> Frame {
        var world = background
        world.stamp = FrameStamp(sequence: sequence, time: MonotonicInstant(seconds: time(ofFrame: sequence)))
        let placement = spritePlacement(at: time(ofFrame: sequence))
        do { try world.blend(portrait, alpha: portraitAlpha, into: placement) } catch {
            throw FrameSourceError("cannot compose scene frame \(sequence): \(error)")
        }
        return world
    }

    public func groundTruth(sequence: UInt64) -> [GroundTruthSubject] {
        let placement = spritePlacement(at: time(ofFrame: sequence))
        let scale = placement.width / ScenePhotos.portraitCrop.width
        let face = ScenePhotos.astronautFace
        let crop = ScenePhotos.portraitCrop
        return [GroundTruthSubject(id: 1, face: PixelRect(x: placement.x + (face.x - crop.x) * scale,
                                                           y: placement.y + (face.y - crop.y) * scale,
                                                           width: face.width * scale, height: face.height * scale))]
    }

    /// The face centre's world pixel for the script's angles at `time`.
    public func faceCenter(at time: Double) -> PixelPoint {
        let angles = configuration.script.angles(at: time)
        let yaw = angles.yaw * .pi / 180, pitch = angles.pitch * .pi / 180
        // Direction for (yaw, pitch) as the gimbal defines them, projected by the world camera.
        let direction = Vector3D(x: sin(yaw) * cos(pitch), y: sin(pitch), z: cos(yaw) * cos(pitch))
        return worldIntrinsics.project(direction)!
    }

    private func spritePlacement(at time: Double) -> PixelRect {
        let scale = configuration.faceHeight / ScenePhotos.astronautFace.height
        let crop = ScenePhotos.portraitCrop, face = ScenePhotos.astronautFace
        let center = faceCenter(at: time)
        let faceMidInCrop = PixelPoint(x: face.midX - crop.x, y: face.midY - crop.y)
        return PixelRect(x: center.x - faceMidInCrop.x * scale, y: center.y - faceMidInCrop.y * scale,
                         width: crop.width * scale, height: crop.height * scale)
    }

    // MARK: - Building the pictures

    /// An ellipse filling the sprite, with a soft edge, as an 8-bit alpha mask.
    static func ellipseMask(size: PixelSize) throws -> Frame {
        var mask = Frame(stamp: FrameStamp(sequence: 0, time: .zero), width: size.width, height: size.height, format: .gray)
        let (a, b) = (Double(size.width) / 2, Double(size.height) / 2)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let dx = (Double(x) + 0.5 - a) / (a * 0.92), dy = (Double(y) + 0.5 - b) / (b * 0.96)
                if dx * dx + dy * dy <= 1 { mask.pixels[y * size.width + x] = 255 }
            }
        }
        try mask.blur(sigma: 4)
        return mask
    }

    /// A plain room wall with a floor, framed photos and a brick panel.
    static func room(size: PixelSize, photos: ScenePhotos) throws -> Frame {
        var room = Frame(stamp: FrameStamp(sequence: 0, time: .zero), width: size.width, height: size.height, format: .bgr)
        let w = Double(size.width), h = Double(size.height)
        // Wall in horizontal bands (a soft vertical gradient), then the floor.
        let bands = 12
        for i in 0..<bands {
            let shade = UInt8(196 - i * 3)
            room.drawRect(PixelRect(x: 0, y: h * Double(i) / Double(bands) * 0.78, width: w, height: h * 0.78 / Double(bands) + 1),
                          color: Color(red: shade, green: shade - 12, blue: shade - 34), thickness: -1)
        }
        room.drawRect(PixelRect(x: 0, y: h * 0.78, width: w, height: h * 0.22), color: Color(red: 92, green: 70, blue: 52), thickness: -1)
        room.drawRect(PixelRect(x: 0, y: h * 0.77, width: w, height: h * 0.015), color: Color(red: 60, green: 50, blue: 45), thickness: -1)
        let texture = try Frame.read(contentsOf: photos.wallTexture).converted(to: .bgr)
        try room.blend(texture, alpha: nil, into: PixelRect(x: w * 0.04, y: h * 0.12, width: w * 0.12, height: h * 0.62))
        try room.blend(texture, alpha: nil, into: PixelRect(x: w * 0.84, y: h * 0.12, width: w * 0.12, height: h * 0.62))
        let slots = [PixelRect(x: w * 0.22, y: h * 0.14, width: w * 0.14, height: h * 0.26),
                     PixelRect(x: w * 0.64, y: h * 0.12, width: w * 0.15, height: h * 0.28)]
        for (path, slot) in zip(photos.wallPictures, slots) {
            let picture = try Frame.read(contentsOf: path)
            room.drawRect(PixelRect(x: slot.x - 12, y: slot.y - 12, width: slot.width + 24, height: slot.height + 24),
                          color: Color(red: 40, green: 32, blue: 28), thickness: -1)
            try room.blend(picture, alpha: nil, into: slot)
        }
        return room
    }
}
