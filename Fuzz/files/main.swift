// libFuzzer target for the text files OpenDock reads (build with Scripts/fuzz): a MOTChallenge
// ground-truth or tracker file must parse or be refused with a line number, never crash, and
// what parses must score against itself without trouble.
import Bench

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFiles(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let frames = try? MOTChallengeFile.parse(text) {
        let summary = MOTChallengeFile.evaluate(truth: frames, hypotheses: frames)
        _ = (summary.mota, summary.idf1, summary.motp)
    }
    return 0
}
