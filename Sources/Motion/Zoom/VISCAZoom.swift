import DockCore

/// A VISCA camera's optical zoom: zoom direct to a position, and the factor from the position
/// the camera reports (polled with the pose), so the picture's intrinsics follow where the lens
/// is rather than where it was told to go.
public final class VISCAZoom: ZoomDrive {
    private let backend: VISCABackend

    init(backend: VISCABackend) { self.backend = backend }

    public var name: String { "VISCA zoom of \(backend.name)" }
    public var range: ClosedRange<Double> { 1...max(backend.model.maximumZoom, 1) }

    public func zoom(to factor: Double, at time: MonotonicInstant) throws {
        try backend.zoom(toPosition: backend.model.zoomPosition(factor: factor))
    }

    public func factor(at time: MonotonicInstant) -> Double {
        backend.model.zoomFactor(position: backend.zoomPosition ?? 0)
    }
}
