import Capture
import DockCore
import Foundation
import TestSupport
import Testing

/// Every input in Tests/Fuzz/jpeg (seeds and the crashes fuzzing found) through one decoder in a
/// row, as the fuzz target feeds them: nothing crashes and every decoded frame has the size its
/// header announces.
@Suite(.tags(.device)) struct JPEGFuzzRegressionTests {
    @Test func fuzzInputsDecodeOrAreRefused() throws {
        let dir = Fixtures.repositoryRoot + "/Tests/Fuzz/jpeg"
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(names.contains("crash-stale-header-after-truncation"))
        let decoder = JPEGDecoder()
        for _ in 0..<2 {
            for name in names {
                let data = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))
                guard data.count > 1 else { continue }
                let scale = DecodeScale.allCases[Int(data[0]) % DecodeScale.allCases.count]
                let format: PixelFormat = data[0] & 0x80 != 0 ? .gray : .bgr
                let body = Array(data.dropFirst())
                guard let header = try? body.withUnsafeBytes({ try decoder.size(of: $0) }) else { continue }
                #expect(header.width > 0 && header.height > 0, "\(name)")
                if let frame = try? body.withUnsafeBytes({
                    try decoder.decode($0, scale: scale, format: format, stamp: FrameStamp(sequence: 0, time: .zero))
                }) {
                    #expect(
                        frame.width == scale.scaled(header.width) && frame.height == scale.scaled(header.height),
                        "\(name)")
                }
            }
        }
    }

    @Test func headerCutBeforeTheFrameMarkerIsRefused() throws {
        let jpeg = try CameraFixtures.jpeg()
        let cut = Array(jpeg.prefix(40))  // SOI and part of the JFIF/quantisation segments only
        #expect(throws: JPEGError.self) { try cut.withUnsafeBytes { try JPEGDecoder().size(of: $0) } }
        #expect(throws: JPEGError.self) {
            try cut.withUnsafeBytes { try JPEGDecoder().decode($0, stamp: FrameStamp(sequence: 0, time: .zero)) }
        }
    }
}
