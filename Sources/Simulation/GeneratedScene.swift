import DockCore
import Foundation
import Imaging

/// A person's truth in one frame, in world pixels.
public struct GroundTruthSubject: Sendable, Hashable {
    public var id: Int
    public var face: PixelRect
    /// More than half the face is behind an occluder.
    public var hidden: Bool
    public var turnedAway: Bool
    public var speaking: Bool

    public init(id: Int, face: PixelRect, hidden: Bool = false, turnedAway: Bool = false, speaking: Bool = false) {
        self.id = id
        self.face = face
        self.hidden = hidden
        self.turnedAway = turnedAway
        self.speaking = speaking
    }
}

/// A wide "recorded video" made from real photos: a room wall with pictures on it and real faces
/// (the astronaut portrait, mirrored and re-lit per person) moving along scripts, with pillars,
/// lighting changes, motion blur, sensor noise and JPEG artefacts as configured, and the exact
/// face box of every person in every frame.
public final class GeneratedScene: FrameSource {
    public let configuration: SceneConfiguration
    public let worldIntrinsics: CameraIntrinsics
    public private(set) var droppedFrames = 0
    private let background: Frame
    /// Per person (in `configuration.people` order): the portrait facing the camera and turned away.
    private let sprites: [(front: Frame, back: Frame)]
    private let spriteAlpha: Frame
    /// The carphone clip, when someone has a talking face.
    private let talkingFace: TalkingFace?
    private var sequence: UInt64 = 0
    /// The last world composed and where it differs from the background: the next frame repaints
    /// only those places rather than copying the whole 11 MiB background (nil: start from it).
    private var canvas: (world: Frame, painted: [PixelRect])?
    private static let hairColor = Color(red: 52, green: 40, blue: 34)

    public init(photos: ScenePhotos, configuration: SceneConfiguration = SceneConfiguration()) throws(FrameSourceError)
    {
        self.configuration = configuration
        worldIntrinsics = CameraIntrinsics(
            horizontalFieldOfView: configuration.worldHorizontalFieldOfView * .pi / 180,
            size: configuration.worldSize)
        do {
            let full = try Frame.read(contentsOf: photos.portrait)
            guard let (head, _) = full.cropped(to: ScenePhotos.portraitCrop),
                head.size
                    == PixelSize(
                        width: Int(ScenePhotos.portraitCrop.width), height: Int(ScenePhotos.portraitCrop.height))
            else {
                throw FrameSourceError(
                    "\(photos.portrait) is smaller than the portrait crop \(ScenePhotos.portraitCrop)")
            }
            spriteAlpha = try Self.ellipseMask(size: head.size)
            sprites = try configuration.people.map { person in
                var front = head
                if person.mirrored { try front.flipHorizontally() }
                if person.brightness != 1 { try front.scaleLevels(gain: person.brightness) }
                return (front, try Self.backOfHead(front, mirrored: person.mirrored))
            }
            background = try Self.room(size: configuration.worldSize, photos: photos)
            if configuration.people.contains(where: \.talking) {
                guard let video = photos.talkingVideo else {
                    throw FrameSourceError("a talking face needs the carphone clip (run Scripts/setup)")
                }
                talkingFace = try TalkingFace(video: video)
            } else {
                talkingFace = nil
            }
        } catch {
            throw FrameSourceError("cannot build the scene from photos: \(error) (run Scripts/setup)")
        }
    }

    public var summary: String {
        let people = configuration.people.count == 1 ? "1 person" : "\(configuration.people.count) people"
        return
            "generated scene \(configuration.worldSize) @ \(Int(configuration.frameRate)) fps, \(configuration.resolvedDuration) s, \(people)"
    }
    public var size: PixelSize { configuration.worldSize }
    public var nominalFrameRate: Double { configuration.frameRate }
    public var frameCount: Int { Int((configuration.resolvedDuration * configuration.frameRate).rounded(.down)) + 1 }

    public func time(ofFrame sequence: UInt64) -> Double { Double(sequence) / configuration.frameRate }

    /// Where in the script a frame falls: its own time, or, looping, the time within the loop.
    func scriptTime(ofFrame sequence: UInt64) -> Double {
        time(ofFrame: configuration.loops ? sequence % UInt64(frameCount) : sequence)
    }

    public func nextFrame() throws(FrameSourceError) -> Frame? {
        guard configuration.loops || sequence < UInt64(frameCount) else { return nil }
        defer { sequence += 1 }
        return try render(sequence: sequence)
    }

    /// The world frame for a sequence number (frames are a pure function of it and the seed).
    public func render(sequence: UInt64) throws(FrameSourceError) -> Frame {
        var world = reusedCanvas()
        var painted: [PixelRect] = []
        world.stamp = FrameStamp(sequence: sequence, time: MonotonicInstant(seconds: time(ofFrame: sequence)))
        let time = scriptTime(ofFrame: sequence)
        do {
            for index in drawingOrder() {
                let person = configuration.people[index]
                let placement = spritePlacement(person, at: time)
                let away = person.turnedAway.contains { $0.contains(time) }
                var sprite = away ? sprites[index].back : sprites[index].front
                if person.talking, let talkingFace {
                    let speech = person.speaking.first { $0.contains(time) }.map { time - $0.start }
                    sprite = try talkingFace.sprite(
                        index: talkingFace.frameIndex(talking: speech), size: sprite.size,
                        face: Self.faceInSprite(mirrored: false))
                    if person.mirrored { try sprite.flipHorizontally() }
                    if person.brightness != 1 { try sprite.scaleLevels(gain: person.brightness) }
                    if away { sprite = try Self.backOfHead(sprite, mirrored: person.mirrored) }
                }
                var alpha = spriteAlpha
                if configuration.motionBlur {
                    // Half a frame period of exposure, in sprite pixels.
                    let previous = spritePlacement(person, at: time - 1 / configuration.frameRate)
                    let length = Int(
                        (abs(placement.x - previous.x) * 0.5 * Double(sprite.size.width) / placement.width).rounded())
                    try sprite.motionBlur(length: length)
                    try alpha.motionBlur(length: length)
                }
                try world.blend(sprite, alpha: alpha, into: placement)
                // blend rounds the corner and the size apart: a pixel more each side covers both.
                painted.append(
                    PixelRect(
                        x: placement.x - 1, y: placement.y - 1, width: placement.width + 2,
                        height: placement.height + 2))
            }
            for column in occluderColumns() {
                // Its edges are blended with what lies under them, so it is undone and drawn anew.
                painted.append(
                    PixelRect(
                        x: column.lowerBound - 1, y: 0, width: column.upperBound - column.lowerBound + 2,
                        height: Double(world.size.height)))
                world.drawRect(
                    PixelRect(
                        x: column.lowerBound, y: 0, width: column.upperBound - column.lowerBound,
                        height: Double(world.size.height)),
                    color: Color(red: 118, green: 112, blue: 104), thickness: -1)
                world.drawRect(
                    PixelRect(x: column.lowerBound, y: 0, width: 6, height: Double(world.size.height)),
                    color: Color(red: 84, green: 80, blue: 74), thickness: -1)
            }
            let gain = configuration.lightingGain(at: time)
            if gain != 1 {
                try world.scaleLevels(gain: gain)
                painted = [PixelRect(x: 0, y: 0, width: Double(world.width), height: Double(world.height))]
            }
        } catch {
            canvas = nil
            throw FrameSourceError("cannot compose scene frame \(sequence): \(error)")
        }
        canvas = (world, painted)
        return world
    }

    /// The last world with what it painted undone. The caller usually lets go of the last frame
    /// before asking for the next one, so this repaints in place; one that keeps it gets its frame
    /// untouched, the canvas being copied on write.
    private func reusedCanvas() -> Frame {
        guard case (var world, let painted)? = canvas else { return background }
        canvas = nil
        for rect in painted { world.copyPixels(in: rect, from: background) }
        return world
    }

    /// What the camera itself adds to the image it sends: sensor noise, then JPEG compression.
    /// Applied to the camera's view (not the wide world), as a webcam would.
    public func applyCameraEffects(to frame: inout Frame) throws(FrameSourceError) {
        do {
            if configuration.noiseSigma > 0 {
                try frame.addNoise(
                    sigma: configuration.noiseSigma, seed: configuration.seed &* 0x9E37_79B9 &+ frame.stamp.sequence)
            }
            if let quality = configuration.jpegQuality { try frame.jpegRoundTrip(quality: quality) }
        } catch {
            throw FrameSourceError("cannot apply camera effects to frame \(frame.stamp.sequence): \(error)")
        }
    }

    public func groundTruth(sequence: UInt64) -> [GroundTruthSubject] {
        let time = scriptTime(ofFrame: sequence)
        let columns = occluderColumns()
        let order = drawingOrder()
        return configuration.people.indices.map { index in
            let person = configuration.people[index]
            let placement = spritePlacement(person, at: time)
            let scale = placement.width / ScenePhotos.portraitCrop.width
            let inSprite = Self.faceInSprite(mirrored: person.mirrored)
            let face = PixelRect(
                x: placement.x + inSprite.x * scale, y: placement.y + inSprite.y * scale,
                width: inSprite.width * scale, height: inSprite.height * scale)
            // Pillars, and the people drawn after this one (nearer) where they cross the face:
            // a sprite's oval spans most of its width at head height.
            let nearer = order.drop { $0 != index }.dropFirst().map {
                spritePlacement(configuration.people[$0], at: time)
            }
            .filter { $0.y < face.maxY && $0.maxY > face.y }
            .map { ($0.x + 0.15 * $0.width)...($0.maxX - 0.15 * $0.width) }
            let covered = (columns + nearer).reduce(0.0) {
                $0 + max(0, min($1.upperBound, face.maxX) - max($1.lowerBound, face.x))
            }
            return GroundTruthSubject(
                id: person.id, face: face, hidden: covered > 0.5 * face.width,
                turnedAway: person.turnedAway.contains { $0.contains(time) },
                speaking: person.speaking.contains { $0.contains(time) })
        }
    }

    /// Far (small) people first, so nearer ones pass in front of them.
    private func drawingOrder() -> [Int] {
        configuration.people.indices.sorted {
            configuration.people[$0].faceHeight < configuration.people[$1].faceHeight
        }
    }

    /// The face centre's world pixel for a script's angles at `time`.
    public func faceCenter(at time: Double, of person: Int = 0) -> PixelPoint {
        let angles = configuration.people[person].script.angles(at: time)
        return worldPoint(yaw: angles.yaw, pitch: angles.pitch)
    }

    /// The world pixel in a direction (degrees; yaw positive right, pitch positive down).
    public func worldPoint(yaw: Double, pitch: Double) -> PixelPoint {
        let y = yaw * .pi / 180
        let p = pitch * .pi / 180
        // Direction for (yaw, pitch) as the gimbal defines them, projected by the world camera.
        return worldIntrinsics.project(Vector3D(x: sin(y) * cos(p), y: sin(p), z: cos(y) * cos(p)))!
    }

    /// World pixel columns each pillar covers.
    private func occluderColumns() -> [ClosedRange<Double>] {
        configuration.occluders.map { o in
            let left = worldPoint(yaw: o.yaw - o.width / 2, pitch: 0).x
            let right = worldPoint(yaw: o.yaw + o.width / 2, pitch: 0).x
            return left...right
        }
    }

    /// The sprite with hair drawn over the face: the person seen from behind.
    static func backOfHead(_ front: Frame, mirrored: Bool) throws -> Frame {
        var back = front
        let face = Self.faceInSprite(mirrored: mirrored)
        var hair = Frame(
            stamp: front.stamp, width: Int(face.width * 1.2), height: Int(face.height * 1.15), format: .bgr)
        hair.drawRect(
            PixelRect(x: 0, y: 0, width: Double(hair.width), height: Double(hair.height)), color: Self.hairColor,
            thickness: -1)
        try back.blend(
            hair, alpha: try Self.ellipseMask(size: hair.size),
            into: PixelRect(
                x: face.midX - Double(hair.width) / 2, y: face.midY - Double(hair.height) * 0.55,
                width: Double(hair.width), height: Double(hair.height)))
        return back
    }

    /// The labelled face inside the cropped portrait.
    static func faceInSprite(mirrored: Bool) -> PixelRect {
        let crop = ScenePhotos.portraitCrop
        let face = ScenePhotos.astronautFace
        let x = mirrored ? crop.width - (face.maxX - crop.x) : face.x - crop.x
        return PixelRect(x: x, y: face.y - crop.y, width: face.width, height: face.height)
    }

    private func spritePlacement(_ person: ScenePerson, at time: Double) -> PixelRect {
        let scale = person.faceHeight(at: time) / ScenePhotos.astronautFace.height
        let crop = ScenePhotos.portraitCrop
        let angles = person.script.angles(at: time)
        let center = worldPoint(yaw: angles.yaw, pitch: angles.pitch)
        let face = Self.faceInSprite(mirrored: person.mirrored)
        return PixelRect(
            x: center.x - face.midX * scale, y: center.y - face.midY * scale,
            width: crop.width * scale, height: crop.height * scale)
    }

    // MARK: - Building the pictures

    /// An ellipse filling the sprite, with a soft edge, as an 8-bit alpha mask.
    static func ellipseMask(size: PixelSize) throws -> Frame {
        var mask = Frame(
            stamp: FrameStamp(sequence: 0, time: .zero), width: size.width, height: size.height, format: .gray)
        let (a, b) = (Double(size.width) / 2, Double(size.height) / 2)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let dx = (Double(x) + 0.5 - a) / (a * 0.92)
                let dy = (Double(y) + 0.5 - b) / (b * 0.96)
                if dx * dx + dy * dy <= 1 { mask.pixels[y * size.width + x] = 255 }
            }
        }
        try mask.blur(sigma: 4)
        return mask
    }

    /// A plain room wall with a floor, framed photos and a brick panel.
    static func room(size: PixelSize, photos: ScenePhotos) throws -> Frame {
        var room = Frame(
            stamp: FrameStamp(sequence: 0, time: .zero), width: size.width, height: size.height, format: .bgr)
        let w = Double(size.width)
        let h = Double(size.height)
        // Wall in horizontal bands (a soft vertical gradient), then the floor.
        let bands = 12
        for i in 0..<bands {
            let shade = UInt8(196 - i * 3)
            room.drawRect(
                PixelRect(
                    x: 0, y: h * Double(i) / Double(bands) * 0.78, width: w, height: h * 0.78 / Double(bands) + 1),
                color: Color(red: shade, green: shade - 12, blue: shade - 34), thickness: -1)
        }
        room.drawRect(
            PixelRect(x: 0, y: h * 0.78, width: w, height: h * 0.22), color: Color(red: 92, green: 70, blue: 52),
            thickness: -1)
        room.drawRect(
            PixelRect(x: 0, y: h * 0.77, width: w, height: h * 0.015), color: Color(red: 60, green: 50, blue: 45),
            thickness: -1)
        let texture = try Frame.read(contentsOf: photos.wallTexture).converted(to: .bgr)
        try room.blend(
            texture, alpha: nil, into: PixelRect(x: w * 0.04, y: h * 0.12, width: w * 0.12, height: h * 0.62))
        try room.blend(
            texture, alpha: nil, into: PixelRect(x: w * 0.84, y: h * 0.12, width: w * 0.12, height: h * 0.62))
        let slots = [
            PixelRect(x: w * 0.22, y: h * 0.14, width: w * 0.14, height: h * 0.26),
            PixelRect(x: w * 0.64, y: h * 0.12, width: w * 0.15, height: h * 0.28),
        ]
        for (path, slot) in zip(photos.wallPictures, slots) {
            let picture = try Frame.read(contentsOf: path)
            room.drawRect(
                PixelRect(x: slot.x - 12, y: slot.y - 12, width: slot.width + 24, height: slot.height + 24),
                color: Color(red: 40, green: 32, blue: 28), thickness: -1)
            try room.blend(picture, alpha: nil, into: slot)
        }
        return room
    }
}
