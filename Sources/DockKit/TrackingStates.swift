import DockCore
import Foundation

extension DockAccessory {
    public typealias TrackedPerson = DockCore.TrackedPerson
    public typealias TrackedObject = DockCore.TrackedObject
    public typealias TrackedSubjectType = DockCore.TrackedSubjectType
    public typealias TrackingState = DockCore.TrackingState
    public typealias TrackingStates = AsyncStream<TrackingState>
}
