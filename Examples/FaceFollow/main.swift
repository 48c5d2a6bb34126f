// Face follow: a DockKit program with vision of its own. dockd holds the camera, so the
// program reads its frames (`cameraFrames`), finds faces with OpenCV's YuNet (OpenDock's
// Perception module; any detector will do), and frames the largest face with custom tracking,
// system tracking off. Detection runs as fast as frames come; `track` goes out on a fixed
// 15 Hz schedule with the newest result, as DockKit's 10–30 Hz contract asks, however slow
// the detector is (an old result is dated by its frame, and dockd does not chase it).
//   dockd --demo --loop &        (or dockd --camera /dev/video0 --gimbal …)
//   example-face-follow [SECONDS]
import Capture
import DockCore
import DockKit
import Foundation
import Perception

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 5
let rate = 15.0

/// The newest detection result and what the program saw, shared by the detector and the ticker.
actor Latest {
    var observations: [DockAccessory.Observation] = []
    var frame: Frame?
    var frames = 0
    var withFace = 0
    var offsets: [Double] = []

    func record(_ frame: Frame, _ observations: [DockAccessory.Observation], offset: Double?) {
        self.frame = frame
        self.observations = observations
        frames += 1
        if !observations.isEmpty { withFace += 1 }
        if let offset { offsets.append(offset) }
    }

    var newest: (Frame, [DockAccessory.Observation])? { frame.map { ($0, observations) } }
}

print("waiting for a dock…")
var docked: DockAccessory?
for await change in try DockAccessoryManager.shared.accessoryStateChanges where change.state == .docked {
    docked = change.accessory
    break
}
guard let accessory = docked else { fatalError("the accessory stream ended") }
print("docked:", accessory.identifier.name)

/// Decoding and detection, on a queue of their own: inference blocks, and Swift's own
/// threads must not be blocked. Used only on `queue`, hence unchecked.
final class Vision: @unchecked Sendable {
    let queue = DispatchQueue(label: "face-follow.vision")
    let detector: any Detector
    let decoder = JPEGDecoder()

    init() throws {
        detector = try DetectorFactory.makeFaceDetector(.yunet, registry: ModelRegistry.standard()).detector
    }

    /// The frame and its largest face (a unit rect, lower-left origin, as DockKit wants it).
    func look(at cameraFrame: DockAccessory.CameraFrame) async -> (Frame, NormalizedRect?)? {
        await withCheckedContinuation { continuation in
            queue.async { [self] in
                guard
                    let frame = try? cameraFrame.jpeg.withUnsafeBytes({
                        try decoder.decode($0, stamp: cameraFrame.stamp)
                    })
                else { return continuation.resume(returning: nil) }
                let coordinates = ImageCoordinates(size: PixelSize(width: frame.width, height: frame.height))
                let largest = ((try? detector.detect(frame)) ?? []).filter { $0.kind == .humanFace }
                    .max { $0.rect.width * $0.rect.height < $1.rect.width * $1.rect.height }
                continuation.resume(returning: (frame, largest.map { coordinates.normalized($0.rect) }))
            }
        }
    }
}

let vision = try Vision()
let latest = Latest()
let start = Date()
let frames = try accessory.cameraFrames(maximumRate: 15)
let looking = Task {
    for await cameraFrame in frames {
        guard let (frame, rect) = await vision.look(at: cameraFrame) else { continue }
        let observations = rect.map { r in
            [
                DockAccessory.Observation(
                    identifier: 1, type: .humanFace, rect: CGRect(x: r.x, y: r.y, width: r.width, height: r.height))
            ]
        }
        let settled = Date().timeIntervalSince(start) > 1.5
        await latest.record(
            frame, observations ?? [], offset: settled ? rect.map { abs($0.x + $0.width / 2 - 0.5) } : nil)
    }
}

try await DockAccessoryManager.shared.setSystemTrackingEnabled(false)
var calls = 0
var refused: [String: Int] = [:]
let clock = ContinuousClock()
var due = clock.now
while Date().timeIntervalSince(start) < seconds {
    if let (frame, observations) = await latest.newest {
        let camera = DockAccessory.CameraInformation(
            captureDevice: "dockd", cameraPosition: .front, orientation: .corrected, cameraIntrinsics: nil,
            referenceDimensions: CGSize(width: frame.width, height: frame.height))
        do {
            try await accessory.track(observations, cameraInformation: camera, image: frame)
            calls += 1
        } catch {
            refused[String(reflecting: error), default: 0] += 1
        }
    }
    due = due.advanced(by: .seconds(1 / rate))
    try await clock.sleep(until: due)
}
looking.cancel()
try await DockAccessoryManager.shared.setSystemTrackingEnabled(true)
let offsets = await latest.offsets.sorted()
let median = offsets.isEmpty ? Double.nan : offsets[offsets.count / 2]
print(
    String(
        format: "%d frames, a face in %d; %d track calls, %d refused; median offset from centre after 1.5 s %.3f",
        await latest.frames, await latest.withFace, calls, refused.values.reduce(0, +), median))
for (reason, count) in refused.sorted(by: { $0.key < $1.key }) { print("refused \(count)×: \(reason)") }
