import DockCore

extension DockAccessory {
    public typealias MotionState = AccessoryMotionState
    public typealias MotionStates = AsyncStream<MotionState>
    public typealias Animation = AccessoryAnimation
}
