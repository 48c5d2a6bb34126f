/// A value given at keyframes, linear between them and held before the first and after the last
/// (keyframes in increasing time); nil when there are none. Scripts, lighting and face sizes of a
/// generated scene all move this way.
func interpolate<Key>(
    _ keys: [Key], at time: Double, time keyTime: (Key) -> Double, value: (Key) -> Double
) -> Double? {
    guard let next = keys.firstIndex(where: { keyTime($0) > time }) else { return keys.last.map(value) }
    guard next > 0 else { return value(keys[0]) }
    let (a, b) = (keys[next - 1], keys[next])
    return value(a) + (value(b) - value(a)) * (time - keyTime(a)) / (keyTime(b) - keyTime(a))
}
