import Capture
import DockCore
import Foundation
import Imaging
import Pipeline

/// The recording's pictures the review page steps through: every `step`-th frame, decoded once
/// at start and kept as JPEG (about 40 kB each; at most `limit` of them, so a long recording is
/// stepped more coarsely rather than held whole, even one whose length the file does not say).
struct ReviewPictures: Sendable {
    private(set) var step: Int
    let jpegs: [[UInt8]]
    /// Every frame the recording has, decoded: the truth's frame numbers count these.
    let frameCount: Int
    let frameRate: Double
    /// The recording's own size: the truth's boxes are in its pixels.
    let size: PixelSize

    static let limit = 2400

    init(video: String, progress: (String) -> Void) throws(SessionError) {
        let probe: VideoFileSource
        do { probe = try VideoFileSource(path: video) } catch {
            throw SessionError("cannot open \(video): \(error.message)")
        }
        size = probe.size
        frameRate = probe.nominalFrameRate
        // Ten pictures a second, fewer when the recording is long.
        let expected = probe.frameCount ?? Int(frameRate * 600)
        step = max(1, Int((frameRate / 10).rounded()), (expected + Self.limit - 1) / Self.limit)
        let source: VideoFileSource
        do {
            source = try VideoFileSource(path: video, scale: DecodeScale.coarsest(keeping: 640, of: size.width))
        } catch { throw SessionError("cannot open \(video): \(error.message)") }
        progress("reading \(video): a picture every \(step) frames…")
        var jpegs: [[UInt8]] = []
        var count = 0
        while true {
            let frame: Frame?
            do { frame = try source.nextFrame() } catch { throw SessionError("cannot read \(video): \(error.message)") }
            guard let frame else { break }
            if count % step == 0 {
                do { jpegs.append(try frame.jpegData(quality: 75)) } catch {
                    throw SessionError("cannot encode a picture of \(video): \(error)")
                }
                // Longer than the file said: every other picture goes, and the step doubles.
                if jpegs.count > Self.limit {
                    jpegs = stride(from: 0, to: jpegs.count, by: 2).map { jpegs[$0] }
                    step *= 2
                }
            }
            count += 1
        }
        guard count > 0 else { throw SessionError("\(video) has no frame that could be decoded") }
        self.jpegs = jpegs
        frameCount = count
    }

    /// The frame picture `index` shows.
    func frame(ofPicture index: Int) -> Int { index * step }
}
