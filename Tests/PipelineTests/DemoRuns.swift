import DockCore
import Pipeline
import Rigs
import TestSupport

/// The closed-loop suites' common run: the demo scene, unpaced, faces only.
func unpacedDemo(frames: Int) -> SessionConfiguration {
    var c = SessionConfiguration()
    c.source = .demo
    c.mediaDirectory = Fixtures.repositoryRoot + "/.cache/media"
    c.modelsDirectory = Fixtures.repositoryRoot + "/models"
    c.realTime = false
    c.bodyDetector = .none
    c.maximumFrames = frames
    return c
}

/// A run of `c`, and the lines it logged as it went.
func runLogging(_ c: SessionConfiguration) throws -> (SessionSummary, [String]) {
    let pipeline = try Pipeline(simulating: c)
    let lines = Protected<[String]>([])
    pipeline.log = { line in lines.withLock { $0.append(line) } }
    let summary = try pipeline.run()
    return (summary, lines.withLock { $0 })
}
