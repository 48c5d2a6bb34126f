// libFuzzer target for the control API's request handling (build with Scripts/fuzz): the first
// byte picks a verb, the rest is its body and the last byte whether it came over TCP; every
// request must be answered with a status and, when refused, a JSON error, never a crash. The
// client side's response reader and event parser get the same bytes as a service's answer.
import ControlClient
import ControlServer
import DockEngine
import DockKit
import Foundation
import Motion
import Pipeline

let accessory = LocalDock(name: "fuzz", backend: SimulatedGimbal())
let api = ControlAPI(
    manager: DockAccessoryManager(), accessory: accessory, monitor: SessionMonitor(),
    token: "fuzz-token")
/// Verbs answered with a body (the streams would hold a subscription per input).
let routes = ControlAPI.verbs.filter { !$0.path.contains("/events/") && !$0.path.hasSuffix(".mjpeg") }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControl(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let route = routes[Int(first) % routes.count]
    let request = HTTPRequest(
        method: first & 0x80 == 0 ? route.method : "POST", path: route.path,
        headers: bytes.count > 1 && bytes.last! & 1 == 1 ? ["authorization": "Bearer fuzz-token"] : [:],
        body: Array(bytes.dropFirst()), overTCP: bytes.count > 1 && bytes.last! & 2 == 2)
    let response = api.handle(request)
    guard (200..<600).contains(response.status) else { fatalError("status \(response.status)") }
    if response.status >= 400, case .bytes(let body) = response.body {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            object["error"] is String
        else {
            fatalError("a refusal without a JSON error: \(String(decoding: body, as: UTF8.self))")
        }
    }
    var reader = HTTPResponseReader()
    var parser = ServerSentEventParser()
    if let body = try? reader.feed(bytes) { _ = parser.feed(body) }
    return 0
}
