import Foundation
// libFuzzer target for benchmark scene files (build with Scripts/fuzz): any bytes must parse
// into a scene or be refused with a key path, never crash; what parses must answer the
// questions a run asks of it.
import SceneFiles

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenes(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let scene = try? BenchScene.parse(bytes, directory: "/nonexistent", defaultName: "fuzz") else { return 0 }
    if case .generated(let generated) = scene.world {
        let duration = generated.resolvedDuration
        for person in generated.people {
            _ = person.script.angles(at: duration / 2)
            _ = person.turnedAway.contains { $0.contains(duration / 3) }
        }
        _ = generated.lightingGain(at: duration / 2)
    }
    return 0
}
