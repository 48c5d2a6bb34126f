import Bench
import DockCore
import Foundation
import Pipeline
import Simulation

/// The benchmark's subscriber to the engine: where the people really were in each processed
/// frame (a generated scene's exact truth, a recording's labels), against what the engine saw,
/// framed and commanded. The engine publishes its frames; this compares them.
package final class TruthRecorder: FrameObserver {
    private let truth: any GroundTruthProvider
    private let virtualCamera: VirtualCamera?
    /// The camera's widest lens: a zoomed frame is seen through it zoomed.
    private let widest: CameraInformation
    /// The closed-loop figures so far (centring, in view, acquisition).
    package private(set) var metrics: LoopMetrics
    /// Truth and decisions per frame (see `SceneEvaluation`).
    package private(set) var samples: [FrameSample] = []
    private var identities = IdentityNumbers()

    package init(truth: any GroundTruthProvider, virtualCamera: VirtualCamera?, camera: CameraInformation) {
        self.truth = truth
        self.virtualCamera = virtualCamera
        widest = camera
        metrics = LoopMetrics(
            viewWidth: Double(camera.referenceDimensions.width), viewHeight: Double(camera.referenceDimensions.height),
            focalLength: camera.intrinsics.fx, window: .max)
    }

    package func observe(_ frame: ObservedFrame) -> FrameOverlay {
        let p = frame.perception
        let coordinates = ImageCoordinates(size: p.frame.size)
        // Seen through the lens as it was zoomed for this frame.
        let zoom = p.camera.intrinsics.fx / widest.intrinsics.fx
        let view = virtualCamera?.zoomed(by: zoom)
        let people = truth.groundTruth(sequence: p.frame.stamp.sequence).map { person in
            let rect = view.map { $0.project(worldRect: person.face, pose: p.frame.truePose ?? p.pose) } ?? person.face
            let direction = view?.pose(centering: PixelPoint(x: person.face.midX, y: person.face.midY)) ?? Vector3D()
            return PersonSample(
                id: person.id, rect: rect, hidden: person.hidden, speaking: person.speaking, yaw: direction.y,
                pitch: direction.x)
        }
        let faceTracks = p.faceTracks.map {
            IdentifiedBox(id: identities.number(for: $0.uuid), rect: coordinates.pixels($0.rect))
        }
        var sample = FrameSample(
            time: frame.time, yaw: p.pose.y, pitch: p.pose.x, commandYaw: frame.command.y,
            commandPitch: frame.command.x, people: people, selected: p.framed.first.map { coordinates.pixels($0.rect) },
            alsoSelected: p.framed.dropFirst().map { coordinates.pixels($0.rect) }, faceTracks: faceTracks,
            crop: p.crop.map { coordinates.pixels($0) })
        sample.zoom = zoom
        let target = SceneEvaluation.target(in: sample, primaryID: nil)
        let targetRect = target.flatMap { id in people.first { $0.id == id } }?.rect
        metrics.record(
            LoopSample(
                time: sample.time, targetCenterX: targetRect?.midX, targetCenterY: targetRect?.midY,
                targetSelected: target.map { SceneEvaluation.chosenPeople(sample).contains($0) } ?? false, zoom: zoom))
        samples.append(sample)
        return FrameOverlay(
            boxes: people.compactMap { $0.hidden ? nil : $0.rect },
            centeringErrorDegrees: metrics.samples.last.flatMap { metrics.centeringErrorDegrees($0) },
            inViewShare: metrics.inViewShare)
    }

    package var reportLines: [String] {
        let inView = metrics.inViewShare.map { String(format: "%.1f %%", $0 * 100) } ?? "never acquired"
        let acquire = metrics.timeToAcquire.map { String(format: "%.2f s", $0) } ?? "-"
        let errors = metrics.centeringErrors()
        let fraction = metrics.centeringFractions
        return [
            "target in view after acquisition: \(inView); time to acquire: \(acquire)",
            String(
                format: "centering error: median %.2f°, RMS %.2f°, p95 %.2f° (%.1f %% of frame width median)",
                errors.median ?? .nan, errors.rootMeanSquare ?? .nan, errors.value(at: 95) ?? .nan,
                (fraction.median ?? .nan) * 100),
        ]
    }
}
