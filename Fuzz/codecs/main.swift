// libFuzzer target for the motor protocol decoders (build with Scripts/fuzz). Any input must be
// decoded without a crash, with bounded memory, and every frame decoded must encode back to
// bytes that decode to the same frame.
import Motion

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCodecs(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Feed in two chunks split by the first byte, so partial frames across calls are exercised.
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    let chunks = [Array(bytes[..<split]), Array(bytes[split...])]

    for version in [SimpleBGC.Version.v1, .v2] {
        var decoder = SimpleBGCDecoder(version: version)
        for chunk in chunks {
            for frame in decoder.feed(chunk) {
                var again = SimpleBGCDecoder(version: version)
                precondition(again.feed(SimpleBGC.encode(frame, version: version)) == [frame], "SimpleBGC round trip")
                _ = SimpleBGC.realtimeData(frame.payload)
            }
        }
    }

    var visca = VISCADecoder()
    for chunk in chunks {
        for message in visca.feed(chunk) {
            precondition(message.count <= 16 && message.last == 0xFF, "VISCA message bounds")
            _ = VISCA.reply(message)?.errorDescription
        }
    }

    var pelco = PelcoDDecoder()
    for chunk in chunks {
        for message in pelco.feed(chunk) {
            var again = PelcoDDecoder()
            precondition(again.feed(message.bytes) == [message], "Pelco-D round trip")
            _ = PelcoD.reply(message)
        }
    }
    return 0
}
