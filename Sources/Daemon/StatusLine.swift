import Foundation
import Pipeline

/// The live one-line status on stderr: rewritten in place on a terminal, one line a second
/// otherwise (so logs stay readable).
public final class StatusLine {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var lastPrinted = -Double.infinity

    public init() {}

    public func show(_ s: SessionStatus) {
        let interval = isTerminal ? 0.2 : 1.0
        guard s.wallSeconds - lastPrinted >= interval else { return }
        lastPrinted = s.wallSeconds
        let degrees = 180 / Double.pi
        let progress = s.totalFrames.map { "\(s.frame)/\($0)" } ?? "\(s.frame)"
        let fps = s.wallSeconds > 0 ? Double(s.frame) / s.wallSeconds : 0
        let inView = s.inViewShare.map { String(format: "  in view %5.1f%%", $0 * 100) } ?? ""
        let error = s.lastCenteringError.map { String(format: "  error %5.2f°", $0) } ?? ""
        let line =
            String(
                format: "frame %@  t %6.2f s  %5.1f fps  yaw %+6.2f°  pitch %+5.2f°  subject %@",
                progress as NSString, s.mediaTime, fps, s.pose.y * degrees, s.pose.x * degrees,
                (s.selectedID.map { "#\($0)" } ?? "none") as NSString) + inView + error
        FileHandle.standardError.write(Data((isTerminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
    }

    /// Ends the in-place line before other output.
    public func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
