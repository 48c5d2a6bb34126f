import CV4L2
import Capture
import DockCore
import Foundation
import TestSupport
import Testing

@Suite(.tags(.device)) struct ReconnectingCameraTests {
    @Test func reopensByStableNameWithinASecondOfReturning() throws {
        let device = CameraFixtures.webcam()
        let jpeg = try CameraFixtures.jpeg()
        device.append([.frame(jpeg), .unplug])
        let events = Protected<[CameraEvent]>([])
        var request = CaptureRequest()
        request.size = PixelSize(width: 512, height: 512)
        let camera = try ReconnectingCamera(
            path: device.stableName, request: request, system: device, retryInterval: 0.02
        ) { event in
            events.withLock { $0.append(event) }
        }
        _ = try camera.nextFrame()
        // Back 0.3 s after the camera saw it go, with a frame queued for the new connection.
        let replugged = Protected<Date?>(nil)
        Thread.detachNewThread {
            while device.isPresent { Thread.sleep(forTimeInterval: 0.001) }
            Thread.sleep(forTimeInterval: 0.3)
            replugged.withLock { $0 = Date() }
            device.replug()
            device.append([.frame(jpeg)])
        }
        let frame = try #require(try camera.nextFrame())
        let back = try #require(replugged.withLock { $0 })
        #expect(Date().timeIntervalSince(back) < 1.0)
        #expect(frame.size == PixelSize(width: 512, height: 512))
        #expect(camera.disconnects == 1 && camera.reconnects == 1)
        let kinds = events.withLock { $0.map { if case .docked = $0 { "docked" } else { "undocked" } } }
        #expect(kinds == ["docked", "undocked", "docked"])
        #expect(device.openDescriptorCount == 1 && device.liveMappingCount == 4)
        #expect(camera.counters.delivered == 2)
    }

    @Test func cancelEndsAWaitForAMissingCamera() throws {
        let device = CameraFixtures.webcam()
        device.append([.unplug])
        var request = CaptureRequest()
        request.size = PixelSize(width: 512, height: 512)
        let camera = try ReconnectingCamera(path: device.path, request: request, system: device, retryInterval: 0.02)
        let cancellation = camera.cancellation
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { cancellation.cancel() }
        #expect(try camera.nextFrame() == nil)
        #expect(device.openDescriptorCount == 0)
    }
}

@Suite(.tags(.device)) struct CaptureThreadTests {
    @Test func mailboxKeepsOnlyTheNewest() throws {
        let mailbox = FrameMailbox()
        for i in 0..<5 {
            mailbox.post(Frame(stamp: FrameStamp(sequence: UInt64(i), time: .zero), width: 2, height: 2, format: .gray))
        }
        #expect(try mailbox.take(timeout: 0)?.stamp.sequence == 4)
        #expect(mailbox.replaced == 4)
        #expect(try mailbox.take(timeout: 0.01) == nil)
        mailbox.close(reason: FrameSourceError("gone", kind: .disconnected))
        #expect(throws: FrameSourceError.self) { try mailbox.take(timeout: 1) }
    }

    @Test func captureRunsOnItsOwnThreadAndEnds() throws {
        let device = CameraFixtures.webcam()
        device.append(Array(repeating: .frame(try CameraFixtures.jpeg()), count: 20))
        var request = CaptureRequest()
        request.size = PixelSize(width: 512, height: 512)
        request.stallTimeout = 0.4
        let fixed = request
        let thread = CaptureThread { () throws(FrameSourceError) -> any FrameSource in
            do { return try V4L2Camera(path: device.path, request: fixed, system: device) } catch let error
                as CaptureError
            { throw error.frameSourceError } catch { throw FrameSourceError("\(error)") }
        }
        var received: [UInt64] = []
        while true {
            do {
                guard let frame = try thread.mailbox.take(timeout: 2) else { break }
                received.append(frame.stamp.sequence)
            } catch {
                #expect(error.kind == .timeout)  // the script ran out: the stream stalls
                break
            }
        }
        #expect(!received.isEmpty && received == received.sorted() && received.last == 19)
        #expect(thread.mailbox.posted == 20)
    }
}

@Suite(.tags(.device)) struct ControlsAndDiscoveryTests {
    @Test func discoveryListsFormatsControlsAndStableNames() throws {
        let device = CameraFixtures.webcam()
        let (devices, failures) = V4L2Discovery.devices(system: device)
        #expect(failures.isEmpty)
        let info = try #require(devices.first)
        #expect(info.card == "Scripted Camera" && info.stableNames == [device.stableName] && info.isVideoCapture)
        #expect(info.formats.map(\.fourcc) == [.mjpeg, .yuyv])
        #expect(info.formats[0].sizes[0] == V4L2FrameSize(width: 512, height: 512, frameRates: [30, 15]))
        let exposure = try #require(info.controls.first { $0.key == "auto_exposure" })
        #expect(
            exposure.menu.map(\.name) == [
                "Auto Mode", "Manual Mode", "Shutter Priority Mode", "Aperture Priority Mode",
            ])
        #expect(info.controls.map(\.key).contains("pan_absolute"))
        let text = V4L2Discovery.describe(devices)
        #expect(
            text.contains("MJPG") && text.contains("512x512@30/15")
                && text.contains("control zoom_absolute (int) 100…500"))
        let json = try JSONEncoder().encode(devices)
        #expect(String(decoding: json, as: UTF8.self).contains("\"fourcc\":\"MJPG\""))
        #expect(device.openDescriptorCount == 0)
    }

    @Test func controlsByNameWithRangeChecks() throws {
        let scripted = CameraFixtures.webcam()
        let device = try V4L2Device(path: scripted.path, system: scripted)
        try device.setControl(named: "Zoom, Absolute", to: 250)
        try device.setControl(named: "pan_absolute", to: -7200)
        #expect(
            scripted.value(of: CV4L2_CID_ZOOM_ABSOLUTE) == 250 && scripted.value(of: CV4L2_CID_PAN_ABSOLUTE) == -7200)
        #expect(try device.control(named: "zoom_absolute").value == 250)
        #expect(throws: CaptureError.self) { try device.setControl(named: "zoom_absolute", to: 9000) }
        #expect(throws: CaptureError.self) { try device.setControl(named: "focus_absolute", to: 1) }
        #expect(scripted.value(of: CV4L2_CID_ZOOM_ABSOLUTE) == 250)
    }

    @Test func controlKeys() {
        #expect(V4L2ControlInfo.key(for: "Pan, Absolute") == "pan_absolute")
        #expect(V4L2ControlInfo.key(for: "Focus, Automatic Continuous") == "focus_automatic_continuous")
        #expect(V4L2ControlInfo.key(for: "White Balance Temperature, Auto") == "white_balance_temperature_auto")
    }
}

@Suite(.tags(.device)) struct LiveIntrinsicsTests {
    @Test func zoomChangesAreFollowedWithinASecondOfFrames() throws {
        let device = CameraFixtures.webcam()
        device.append(Array(repeating: .frame(try CameraFixtures.jpeg()), count: 40))
        var request = CaptureRequest()
        request.size = PixelSize(width: 512, height: 512)
        request.decodeScale = .half
        let camera = try ReconnectingCamera(
            path: device.path, request: request, system: device,
            intrinsics: CameraIntrinsicsSource(fieldOfView: 90))
        let wide = try #require(camera.information.current)
        #expect(wide.referenceDimensions == PixelSize(width: 256, height: 256) && abs(wide.intrinsics.fx - 128) < 1e-9)
        // Someone zooms in to twice the focal length (another handle on the same camera).
        let other = try V4L2Device(path: device.path, system: device)
        try other.setControl(named: "zoom_absolute", to: 200)
        other.close()
        for _ in 0..<30 { _ = try camera.nextFrame() }
        let tele = try #require(camera.information.current)
        #expect(abs(tele.intrinsics.fx - 256) < 1e-9 && tele.intrinsics.cx == 128)
    }
}
