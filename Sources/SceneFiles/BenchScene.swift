import Capture
import DockCore
import Foundation
import Motion
import Pipeline
import Simulation

/// One benchmark scene, read from a scene file (docs/scenes.md): the world (a recording or a
/// generated scene), the camera on the gimbal, the gimbal, optional audio and the ground truth.
public struct BenchScene: Sendable {
    public enum World: Sendable {
        case generated(SceneConfiguration)
        case video(path: String, truth: LabelledTruth)
    }

    public var name: String
    public var description: String?
    public var file: String?
    public var world: World
    /// The recording's (or generated world's) horizontal field of view, degrees.
    public var worldFieldOfView: Double
    public var viewSize = PixelSize(width: 1280, height: 720)
    public var viewFieldOfView = 60.0
    /// The camera's optical zoom lens (`camera.zoom_max`, …); nil = a fixed lens.
    public var zoomLens: ZoomLensModel?
    public var gimbal = GimbalModel()
    /// Radians: pitch in x, yaw in y.
    public var initialPose = Vector3D()
    public var audio: String?
    /// The scene's microphone pair delivers its channels right, left (`"mic_wiring":
    /// "right-left"`): what a pair wired the other way round sounds like.
    public var micWiringSwapped = false
    public var primaryID: Int?
    /// The truth was proposed by `dockctl label` and nobody has checked it (`truth.proposed`).
    public var truthIsProposed = false
    public var steps: [Double] = []

    /// Where the people really are in the recording, when the world is one.
    public var labelledTruth: LabelledTruth? {
        if case .video(_, let truth) = world { truth } else { nil }
    }

    public init(name: String, world: World, worldFieldOfView: Double) {
        self.name = name
        self.world = world
        self.worldFieldOfView = worldFieldOfView
    }

    /// The run of the pipeline this scene asks for, on top of the user's detector and control choices.
    public func configuration(base: SessionConfiguration) -> SessionConfiguration {
        var c = base
        switch world {
        case .generated(let scene):
            c.source = .demo
            c.scene = scene
            c.sourceFieldOfView = scene.worldHorizontalFieldOfView
        case .video(let path, _):
            c.source = .file(path)
            c.sourceFieldOfView = worldFieldOfView
        }
        c.gimbal = .sim
        c.audioFile = audio
        c.soundChannelsSwapped = micWiringSwapped
        c.viewSize = viewSize
        c.viewFieldOfView = viewFieldOfView
        c.simulatedZoomLens = zoomLens
        c.gimbalModel = gimbal
        return c
    }

    /// Reads and checks a scene file; every problem names the file and the key's path.
    public static func load(path: String) throws(SessionError) -> BenchScene {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SessionError("scene \(path): cannot read the file (does it exist?)")
        }
        let directory = (path as NSString).deletingLastPathComponent
        do {
            var scene = try parse(
                data, directory: directory.isEmpty ? "." : directory,
                defaultName: ((path as NSString).lastPathComponent as NSString).deletingPathExtension)
            scene.file = path
            return scene
        } catch {
            throw SessionError("scene \(path): \(error)")
        }
    }

    /// Parses a scene; relative file names are taken from `directory`. Recordings are opened to
    /// check the truth against their size and length.
    public static func parse(_ data: Data, directory: String, defaultName: String) throws(JSONFieldError) -> BenchScene
    {
        let root = try JSONFields.parse(data)
        let name = try root.string("name") ?? defaultName
        let description = try root.string("description")
        func resolve(_ file: String) -> String { file.hasPrefix("/") ? file : directory + "/" + file }

        guard let worldFields = try root.object("world") else {
            throw root.error("world", "is required: {\"video\": …} or {\"generated\": …}")
        }
        let fieldOfView = try worldFields.number("horizontal_fov_deg", in: 20...170)
        let truthFields = try root.object("truth")
        let (world, duration, worldSize) = try readWorld(
            worldFields, fieldOfView: fieldOfView, truth: truthFields, resolve: resolve)
        try worldFields.finish()

        var scene = BenchScene(
            name: name, world: world,
            worldFieldOfView: fieldOfView
                ?? {
                    if case .generated(let g) = world { return g.worldHorizontalFieldOfView }
                    return 90
                }())
        if let camera = try root.object("camera") { try scene.readCamera(camera, worldSize: worldSize) }
        if let gimbal = try root.object("gimbal") { try scene.readGimbal(gimbal) }
        if let audio = try root.string("audio") {
            let file = resolve(audio)
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw root.error("audio", "cannot read \(file)")
            }
            scene.audio = file
        }
        if let wiring = try root.string("mic_wiring") {
            guard wiring == "left-right" || wiring == "right-left" else {
                throw root.error("mic_wiring", "expects \"left-right\" or \"right-left\", got \"\(wiring)\"")
            }
            scene.micWiringSwapped = wiring == "right-left"
        }
        if let truthFields {
            scene.primaryID = try truthFields.integer("primary", in: 0...1_000_000)
            scene.truthIsProposed = try truthFields.bool("proposed") ?? false
            scene.steps = try truthFields.numbers("steps_s") ?? []
            let known: [Int] =
                switch world {
                case .generated(let g): g.people.map(\.id)
                case .video(_, let truth): truth.people.map(\.id)
                }
            if let primary = scene.primaryID, !known.contains(primary) {
                throw truthFields.error(
                    "primary", "no person has id \(primary) (ids: \(known.map(String.init).joined(separator: ", ")))")
            }
            for (index, step) in scene.steps.enumerated() where step < 0 || step > duration {
                throw JSONFieldError(
                    path: truthFields.child("steps_s") + "[\(index)]",
                    problem: "\(JSONFields.format(step)) s is outside the scene (0…\(JSONFields.format(duration)) s)")
            }
            try truthFields.finish()
        } else if case .video = world {
            throw root.error(
                "truth", "is required for a recording: the people's face boxes (typed, or a mot or ava file)")
        }
        try root.finish()
        scene.description = description
        return scene
    }

    /// The world: a recording (probed for its size and length, its truth read) or a generated one.
    private static func readWorld(
        _ worldFields: JSONFields, fieldOfView: Double?, truth truthFields: JSONFields?,
        resolve: (String) -> String
    ) throws(JSONFieldError) -> (World, duration: Double, size: PixelSize) {
        switch (worldFields.has("video"), worldFields.has("generated")) {
        case (true, false):
            let video = resolve(try worldFields.string("video")!)
            let probe: VideoFileSource
            do { probe = try VideoFileSource(path: video) } catch {
                throw worldFields.error("video", "cannot open \(video): \(error.message)")
            }
            let worldSize = probe.size
            let frames = probe.frameCount ?? Int.max
            let duration = Double(frames) / probe.nominalFrameRate
            let truth = try readLabelledTruth(
                truthFields,
                video: LabelledVideo(frameCount: frames, size: probe.size, frameRate: probe.nominalFrameRate),
                resolve: resolve)
            return (.video(path: video, truth: truth), duration, worldSize)
        case (false, true):
            var generated = try readGenerated(try worldFields.object("generated")!, resolve: resolve)
            if let fieldOfView { generated.worldHorizontalFieldOfView = fieldOfView }
            for key in ["people", "speech", "mot", "rttm", "rttm_speakers", "ava", "ava_start_s"]
            where truthFields?.has(key) == true {
                throw truthFields!.error(
                    key, "a generated world's truth is exact and comes from world.generated; remove it")
            }
            let duration = generated.resolvedDuration
            let worldSize = generated.worldSize
            return (.generated(generated), duration, worldSize)
        default:
            throw worldFields.error("video", "give exactly one of world.video (a recording) and world.generated")
        }
    }

    /// `camera`: the view's size and field of view.
    private mutating func readCamera(_ camera: JSONFields, worldSize: PixelSize) throws(JSONFieldError) {
        let width = try camera.integer("width", in: 64...7680) ?? viewSize.width
        let height = try camera.integer("height", in: 64...4320) ?? viewSize.height
        viewSize = PixelSize(width: width, height: height)
        viewFieldOfView = try camera.number("horizontal_fov_deg", in: 10...160) ?? viewFieldOfView
        if let maximum = try camera.number("zoom_max", in: 1.1...30) {
            var lens = ZoomLensModel(maximumFactor: maximum)
            lens.doublingsPerSecond = try camera.number("zoom_doublings_per_s", in: 0.1...10) ?? lens.doublingsPerSecond
            lens.latency = (try camera.number("zoom_latency_ms", in: 0...2000)).map { $0 / 1000 } ?? lens.latency
            zoomLens = lens
        }
        try camera.finish()
        guard viewFieldOfView < worldFieldOfView else {
            throw camera.error(
                "horizontal_fov_deg", "must be narrower than the world's \(JSONFields.format(worldFieldOfView))°")
        }
        guard width <= worldSize.width * 2 else {
            throw camera.error("width", "\(width) is far larger than the world's \(worldSize.width) pixels")
        }
    }

    /// `gimbal`: the simulated head's limits, latency and starting pose.
    private mutating func readGimbal(_ gimbal: JSONFields) throws(JSONFieldError) {
        let degrees = Double.pi / 180
        if let v = try gimbal.number("max_speed_deg_s", in: 1...2000) { self.gimbal.maximumSpeed = v * degrees }
        if let v = try gimbal.number("max_accel_deg_s2", in: 1...20000) {
            self.gimbal.maximumAcceleration = v * degrees
        }
        if let v = try gimbal.number("latency_ms", in: 0...1000) { self.gimbal.latency = v / 1000 }
        if let v = try gimbal.number("declared_latency_ms", in: 0...1000) { self.gimbal.declaredLatency = v / 1000 }
        if let v = try gimbal.number("speed_step_deg_s", in: 0...100) { self.gimbal.speedStep = v * degrees }
        initialPose.y = (try gimbal.number("start_yaw_deg", in: -90...90) ?? 0) * degrees
        initialPose.x = (try gimbal.number("start_pitch_deg", in: -30...30) ?? 0) * degrees
        try gimbal.finish()
    }

    static func spans(_ fields: JSONFields, _ key: String, within limit: Double) throws(JSONFieldError)
        -> [TimeSpan]
    {
        var out: [TimeSpan] = []
        for (index, pair) in (try fields.tuples(key, length: 2...2, shape: "[from_s, to_s]") ?? []).enumerated() {
            guard pair[0] < pair[1], pair[0] >= 0, pair[1] <= limit + 1e-9 else {
                throw JSONFieldError(
                    path: fields.child(key) + "[\(index)]",
                    problem: "expects from < to within 0…\(JSONFields.format(limit)) s")
            }
            out.append(TimeSpan(pair[0], pair[1]))
        }
        return out
    }

    static func readGenerated(_ fields: JSONFields, resolve: (String) -> String = { $0 }) throws(JSONFieldError)
        -> SceneConfiguration
    {
        var c = SceneConfiguration()
        let width = try fields.integer("width", in: 320...8000) ?? c.worldSize.width
        let height = try fields.integer("height", in: 240...4000) ?? c.worldSize.height
        c.worldSize = PixelSize(width: width, height: height)
        c.frameRate = try fields.number("fps", in: 1...120) ?? c.frameRate
        c.duration = try fields.number("duration_s", in: 0.1...3600)
        let halfField = c.worldHorizontalFieldOfView / 2 - 5
        var ids = Set<Int>()
        guard
            let people = try fields.objects(
                "people",
                { (p) throws(JSONFieldError) -> ScenePerson in
                    guard let id = try p.integer("id", in: 0...1_000_000) else { throw p.error("id", "is required") }
                    guard ids.insert(id).inserted else { throw p.error("id", "\(id) is used twice") }
                    guard
                        let rows = try p.tuples(
                            "path", length: 2...3, shape: "[seconds, yaw_deg] or [seconds, yaw_deg, pitch_deg]"),
                        !rows.isEmpty
                    else { throw p.error("path", "is required: [[seconds, yaw_deg, pitch_deg], …]") }
                    for (index, row) in rows.enumerated() {
                        let rowPath = p.child("path") + "[\(index)]"
                        if index > 0, row[0] <= rows[index - 1][0] {
                            throw JSONFieldError(path: rowPath, problem: "times must increase")
                        }
                        if row[0] < 0 { throw JSONFieldError(path: rowPath, problem: "time must not be negative") }
                        if abs(row[1]) > halfField || abs(row.count > 2 ? row[2] : 0) > 25 {
                            throw JSONFieldError(
                                path: rowPath,
                                problem: "yaw must be within ±\(JSONFields.format(halfField))°, pitch within ±25°")
                        }
                    }
                    let script = SceneScript(
                        keyframes: rows.map { .init(time: $0[0], yaw: $0[1], pitch: $0.count > 2 ? $0[2] : 0) })
                    let end = max(script.duration, c.duration ?? 0)
                    var person = ScenePerson(
                        id: id, script: script, faceHeight: try p.number("face_height_px", in: 8...600) ?? 120,
                        mirrored: try p.bool("mirrored") ?? false,
                        brightness: try p.number("brightness", in: 0.2...2) ?? 1,
                        turnedAway: try spans(p, "turned_away", within: end),
                        speaking: try spans(p, "speaking", within: end),
                        talking: try p.bool("talking") ?? false)
                    person.distance = try p.number("distance_m", in: 0.3...30) ?? person.distance
                    person.mouthHeight = try p.number("mouth_height_m", in: 0.3...2.5) ?? person.mouthHeight
                    let heights = try p.tuples("face_heights", length: 2...2, shape: "[seconds, face_height_px]") ?? []
                    for (index, row) in heights.enumerated()
                    where (index > 0 && row[0] <= heights[index - 1][0]) || !(8...600).contains(row[1]) {
                        throw JSONFieldError(
                            path: p.child("face_heights") + "[\(index)]",
                            problem: "times must increase and heights lie in 8…600 pixels")
                    }
                    person.faceHeights = heights.map { FaceHeightKey(time: $0[0], height: $0[1]) }
                    return person
                }), !people.isEmpty
        else { throw fields.error("people", "is required: at least one person") }
        c.people = people
        c.occluders =
            try fields.objects("occluders") { (o) throws(JSONFieldError) -> SceneOccluder in
                guard let yaw = try o.number("yaw_deg", in: -80...80),
                    let width = try o.number("width_deg", in: 0.5...40)
                else {
                    throw o.error("yaw_deg", "an occluder needs yaw_deg and width_deg")
                }
                return SceneOccluder(yaw: yaw, width: width)
            } ?? []
        let lighting = try fields.tuples("lighting", length: 2...2, shape: "[seconds, gain]") ?? []
        for (index, row) in lighting.enumerated()
        where (index > 0 && row[0] <= lighting[index - 1][0]) || !(0.05...4).contains(row[1]) {
            throw JSONFieldError(
                path: fields.child("lighting") + "[\(index)]", problem: "times must increase and gains lie in 0.05…4")
        }
        c.lighting = lighting.map { (time: $0[0], gain: $0[1]) }
        c.motionBlur = try fields.bool("motion_blur") ?? false
        c.jpegQuality = try fields.integer("jpeg_quality", in: 1...100)
        c.noiseSigma = try fields.number("noise_sigma", in: 0...50) ?? 0
        c.seed = UInt64(try fields.integer("seed", in: 0...Int(Int32.max)) ?? 1)
        if let recorded = try fields.object("recorded_speech") {
            c.recordedSpeech = try readRecordedSpeech(
                recorded, people: &c.people, duration: c.resolvedDuration, resolve: resolve)
        }
        if let room = try fields.object("room") {
            c.room = try readRoom(room, people: c.people, duration: c.resolvedDuration)
        }
        try fields.finish()
        return c
    }
}
