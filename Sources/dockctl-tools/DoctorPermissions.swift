import Foundation

/// The doctor's look at the groups this user is in: udev gives the device nodes a setup needs
/// to groups (cameras to video, serial ports to dialout, sound cards to audio, input devices
/// to input), and a user outside them gets "permission denied" from the first open.
extension DoctorCommand {
    /// Who runs the doctor: root, or a user in these groups.
    struct Membership: Equatable {
        var isRoot: Bool
        var groups: Set<String>
    }

    static let deviceGroups: [(group: String, need: String)] = [
        ("video", "cameras and the virtual camera"), ("dialout", "serial heads"), ("audio", "microphones"),
        ("input", "a remote's buttons"),
    ]

    func permissions() -> [Finding] {
        let membership = surroundings.membership ?? Self.currentMembership()
        if membership.isRoot {
            return [
                Finding(
                    status: .ok,
                    line:
                        "permissions: running as root, so every device opens (a service is better run as its own user in the video, dialout, audio and input groups)"
                )
            ]
        }
        let missing = Self.deviceGroups.filter { !membership.groups.contains($0.group) }
        guard !missing.isEmpty else {
            return [
                Finding(status: .ok, line: "permissions: this user is in the video, dialout, audio and input groups")
            ]
        }
        let names = missing.map(\.group)
        return [
            Finding(
                status: .warning,
                line:
                    "permissions: this user is not in the \(names.joined(separator: ", ")) group\(names.count > 1 ? "s" : "") (\(missing.map(\.need).joined(separator: ", "))); add yourself (sudo usermod -aG \(names.joined(separator: ",")) $USER) and log in again"
            )
        ]
    }

    static func currentMembership() -> Membership {
        let count = getgroups(0, nil)
        var ids = [gid_t](repeating: 0, count: Int(max(count, 0)))
        let got = getgroups(count, &ids)
        let names = (ids.prefix(Int(max(got, 0))) + [getegid()]).compactMap { id -> String? in
            guard let entry = getgrgid(id) else { return nil }
            return String(cString: entry.pointee.gr_name)
        }
        return Membership(isRoot: geteuid() == 0, groups: Set(names))
    }
}
