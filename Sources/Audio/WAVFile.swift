import Foundation

/// RIFF/WAVE files: PCM 16, 24 or 32-bit integer, or 32-bit float, any channel count
/// (WAVE_FORMAT_EXTENSIBLE included). Anything else is refused with what was found.
public enum WAVFile {
    public static func read(path: String) throws(AudioError) -> AudioClip {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AudioError("cannot read \(path) (does it exist?)")
        }
        do { return try parse(Array(data)) } catch { throw AudioError("\(path): \(error.message)") }
    }

    static func parse(_ bytes: [UInt8]) throws(AudioError) -> AudioClip {
        func u32(_ i: Int) -> UInt32 {
            UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
        }
        func u16(_ i: Int) -> UInt16 { UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 }
        guard bytes.count >= 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x41, 0x56, 0x45]
        else {
            throw AudioError("not a RIFF/WAVE file")
        }
        var format: (code: UInt16, channels: Int, rate: Double, bits: Int)?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(u32(offset + 4))
            let body = offset + 8
            guard size >= 0, body + size <= bytes.count || id == "data" else {
                throw AudioError("chunk '\(id)' runs past the end of the file")
            }
            switch id {
            case "fmt ":
                guard size >= 16 else { throw AudioError("the fmt chunk is too short") }
                var code = u16(body)
                if code == 0xFFFE, size >= 40 { code = u16(body + 24) }  // extensible: the sub-format's first two bytes
                format = (code, Int(u16(body + 2)), Double(u32(body + 4)), Int(u16(body + 14)))
            case "data":
                guard let f = format else { throw AudioError("the data chunk comes before the fmt chunk") }
                let end = min(bytes.count, body + size)  // a streamed file may carry a too-large size
                return try decode(bytes[body..<end], format: f)
            default: break
            }
            offset = body + size + (size & 1)
        }
        throw AudioError("no data chunk")
    }

    static func decode(_ data: ArraySlice<UInt8>, format f: (code: UInt16, channels: Int, rate: Double, bits: Int))
        throws(AudioError) -> AudioClip
    {
        guard (1...32).contains(f.channels) else { throw AudioError("\(f.channels) channels") }
        guard (8000...384_000).contains(f.rate) else { throw AudioError("a sample rate of \(Int(f.rate)) Hz") }
        let bytesPerSample: Int
        switch (f.code, f.bits) {
        case (1, 16): bytesPerSample = 2
        case (1, 24): bytesPerSample = 3
        case (1, 32), (3, 32): bytesPerSample = 4
        default:
            throw AudioError(
                "format \(f.code) with \(f.bits) bits per sample (PCM 16/24/32-bit or float 32-bit expected)")
        }
        let frames = data.count / (bytesPerSample * f.channels)
        var channels = [[Float]](repeating: [Float](repeating: 0, count: frames), count: f.channels)
        var i = data.startIndex
        for n in 0..<frames {
            for c in 0..<f.channels {
                let value: Float
                switch (f.code, bytesPerSample) {
                case (1, 2): value = Float(Int16(bitPattern: UInt16(data[i]) | UInt16(data[i + 1]) << 8)) / 32768
                case (1, 3):
                    let raw = Int32(
                        bitPattern: UInt32(data[i]) << 8 | UInt32(data[i + 1]) << 16 | UInt32(data[i + 2]) << 24)
                    value = Float(raw >> 8) / 8_388_608
                case (1, 4):
                    let raw = Int32(
                        bitPattern: UInt32(data[i]) | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2]) << 16 | UInt32(
                            data[i + 3]) << 24)
                    value = Float(Double(raw) / 2_147_483_648)
                default:
                    let raw =
                        UInt32(data[i]) | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2]) << 16 | UInt32(data[i + 3])
                        << 24
                    let float = Float(bitPattern: raw)
                    value = float.isFinite ? max(-1, min(1, float)) : 0
                }
                channels[c][n] = value
                i += bytesPerSample
            }
        }
        return AudioClip(sampleRate: f.rate, channels: channels)
    }

    /// Writes 16-bit PCM.
    public static func write(_ clip: AudioClip, to path: String) throws(AudioError) {
        var bytes: [UInt8] = []
        func put32(_ v: UInt32) {
            bytes += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
        }
        func put16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        let channels = clip.channels.count
        let frames = clip.frameCount
        let dataSize = UInt32(frames * channels * 2)
        bytes += Array("RIFF".utf8)
        put32(36 + dataSize)
        bytes += Array("WAVE".utf8)
        bytes += Array("fmt ".utf8)
        put32(16)
        put16(1)
        put16(UInt16(channels))
        put32(UInt32(clip.sampleRate))
        put32(UInt32(clip.sampleRate) * UInt32(channels) * 2)
        put16(UInt16(channels * 2))
        put16(16)
        bytes += Array("data".utf8)
        put32(dataSize)
        bytes.reserveCapacity(bytes.count + Int(dataSize))
        for n in 0..<frames {
            for c in 0..<channels {
                put16(UInt16(bitPattern: Int16(max(-32768, min(32767, (clip.channels[c][n] * 32768).rounded())))))
            }
        }
        do { try Data(bytes).write(to: URL(fileURLWithPath: path)) } catch {
            throw AudioError("cannot write \(path): \(error.localizedDescription)")
        }
    }
}
