import DockCore
import Foundation
import Imaging
import Perception
import Tracking

/// The per-frame sinks every rig shares, on the perception thread: the observers (the
/// benchmark's ground truth), the trace, the annotated video and the status line.
struct FrameSinks {
    let configuration: SessionConfiguration
    let rig: Rig
    let detectorName: String
    /// Those who measure the run, in the order they subscribed.
    var observers: [any FrameObserver] = []
    private var identities = IdentityNumbers()
    private var video: VideoFileSink?
    private var notices: [String] = []
    private var traceFile: TraceFile?
    /// What the observers said of the latest frame.
    private var overlay = FrameOverlay()

    init(configuration: SessionConfiguration, rig: Rig, detectorName: String) throws(SessionError) {
        self.configuration = configuration
        self.rig = rig
        self.detectorName = detectorName
        let camera = rig.camera
        if let path = configuration.outputVideo {
            do {
                // On media time nothing is late: the video waits for the disk and keeps every frame.
                video = try VideoFileSink(
                    path: path, size: Frame.viewingSize(of: camera.referenceDimensions), fps: rig.nominalFrameRate,
                    keepBytes: configuration.outputVideoKeepBytes, waitsWhenFull: rig.timing == .lockStep)
            } catch {
                throw SessionError("cannot write the annotated video: \(error)")
            }
        }
        if let path = configuration.tracePath {
            do { traceFile = try TraceFile(path: path, waitsWhenFull: rig.timing == .lockStep) } catch {
                throw SessionError(
                    "cannot write the trace to \(path): \(error) (check that its folder exists and is writable)")
            }
        }
    }

    /// Records one processed frame: `time` is seconds since the run's first frame, `command`
    /// the motors' latest velocity.
    mutating func record(_ p: FramePerception, time: Double, command: Vector3D, summary: inout SessionSummary) {
        var merged = FrameOverlay()
        for observer in observers {
            let said = observer.observe(ObservedFrame(perception: p, time: time, command: command))
            merged.boxes += said.boxes
            merged.centeringErrorDegrees = merged.centeringErrorDegrees ?? said.centeringErrorDegrees
            merged.inViewShare = merged.inViewShare ?? said.inViewShare
        }
        overlay = merged
        if video != nil { writeVideo(p, time: time, command: command, summary: &summary) }
        guard configuration.keepFrameRecords || traceFile != nil else { return }
        let row = TraceRow(
            sequence: p.frame.stamp.sequence, time: time, yaw: p.pose.y, pitch: p.pose.x,
            commandYaw: command.y, commandPitch: command.x, selectedID: p.framed.first?.id,
            subjects: p.subjects.map { ($0.id, $0.rect.x, $0.rect.y, $0.rect.width, $0.rect.height) })
        if configuration.keepFrameRecords {
            summary.trace.append(row)
            summary.subjectsByFrame.append(
                p.subjects.map {
                    SubjectRecord(
                        person: identities.number(for: $0.uuid), kind: $0.kind, rect: $0.rect,
                        speaking: p.speaking[$0.uuid])
                })
        }
        if let traceFile {
            traceFile.append(row)
            // Losing the trace must not stop the tracking either: said once (its notice), and the run goes on.
            if let failure = traceFile.failure { stopTrace(failure, summary: &summary) }
        }
    }

    private mutating func stopTrace(_ failure: String, summary: inout SessionSummary) {
        summary.traceError = failure
        notices += traceFile?.takeNotices() ?? []
        traceFile?.close(timeout: 0)
        summary.traceRowsDropped = traceFile?.rowsDropped ?? 0
        traceFile = nil
    }

    private mutating func writeVideo(
        _ p: FramePerception, time: Double, command: Vector3D, summary: inout SessionSummary
    ) {
        guard let video else { return }
        // A file that stopped takes no more frames: nothing is drawn for it for the rest of the run.
        if let failure = video.current.failure {
            notices += video.takeNotices()  // its last word, before the sink goes
            summary.outputVideoError = failure
            video.finish()
            self.video = nil
            return
        }
        var text = String(
            format: "OpenDock  frame %d  t %.2f s  detector %@  subject %@", summary.frames, time,
            detectorName as NSString,
            (p.framed.isEmpty ? "none" : p.framed.map { "#\($0.id)" }.joined(separator: "+")) as NSString)
        if !observers.isEmpty {
            // Live figures against the truth: this frame's error and the share in view so far.
            text += String(
                format: "  error %@  in view %@",
                (overlay.centeringErrorDegrees.map { String(format: "%.1f deg", $0) } ?? "-") as NSString,
                (overlay.inViewShare.map { String(format: "%.0f%%", $0 * 100) } ?? "-") as NSString)
        }
        // A frame decoded small for detection is written from its camera picture.
        let view = p.frame.picture(at: video.size)
        let enlargement = Double(view.width) / Double(p.frame.width)
        let annotated =
            !configuration.annotateOutput
            ? view
            : Annotator().annotate(
                view, detections: p.detections.map { $0.scaled(by: enlargement) }, subjects: p.subjects,
                selectedID: p.framed.first?.id, truth: overlay.boxes.map { $0.scaled(by: enlargement) }, pose: p.pose,
                command: command, text: text)
        video.submit(annotated)
    }

    /// The live figures for the status line.
    func status(_ p: FramePerception, frames: Int, time: Double, wallSeconds: Double) -> SessionStatus {
        SessionStatus(
            frame: frames, totalFrames: rig.totalFrames, mediaTime: time, wallSeconds: wallSeconds, pose: p.pose,
            selectedID: p.framed.first?.id, inViewShare: overlay.inViewShare,
            lastCenteringError: overlay.centeringErrorDegrees)
    }

    /// What the sinks have to say since last asked: a disk that fell behind, a sink that stopped.
    mutating func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices + (video?.takeNotices() ?? []) + (traceFile?.takeNotices() ?? [])
    }

    /// Ends the sinks at the end of a run: the queued frames and the trace's last rows go out, or
    /// the summary says why not.
    mutating func finish(summary: inout SessionSummary) {
        summary.measurementLines = observers.flatMap(\.reportLines)
        if let traceFile {
            // A disk that takes nothing for 2 s more loses the rows still queued, counted.
            if let failure = traceFile.close(timeout: 2) { summary.traceError = summary.traceError ?? failure }
            summary.traceRowsDropped = traceFile.rowsDropped
        }
        if let figures = video?.finish() {
            summary.outputVideoError = figures.failure ?? summary.outputVideoError
            summary.outputVideoFrames = (figures.written, figures.dropped)
        }
        close()
    }

    mutating func close() {
        video?.finish()
        video = nil
        traceFile?.close(timeout: 0)
        traceFile = nil
    }
}
