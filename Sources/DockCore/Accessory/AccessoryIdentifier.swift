import Foundation

/// Which dock: its name, its kind and an identity stable while it is known (DockKit's
/// `DockAccessory.Identifier`, offered there under that name).
public struct AccessoryIdentifier: Hashable, Sendable {
    public enum Category: Hashable, Sendable, CustomDebugStringConvertible {
        case trackingStand

        public var debugDescription: String {
            switch self {
            case .trackingStand: "trackingStand"
            }
        }
    }
    public let name: String
    public let category: Category
    public let uuid: UUID

    package init(name: String, category: Category, uuid: UUID) {
        self.name = name
        self.category = category
        self.uuid = uuid
    }
}
