import DockCore

/// A 3×3 matrix of floats in columns, as Apple's simd names it: DockKit's `CameraInformation`
/// takes the camera's intrinsic matrix K in it (column-major: `columns.2.x` is cx). Apple's
/// name, so that Apple's code compiles.
// swift-format-ignore: TypeNamesShouldBeCapitalized
public struct matrix_float3x3: Hashable, Sendable {
    public var columns: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)

    public init(columns: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)) { self.columns = columns }

    /// From three columns; missing ones are zero.
    public init(_ columns: [SIMD3<Float>]) {
        let c = columns + Array(repeating: SIMD3<Float>(), count: max(0, 3 - columns.count))
        self.columns = (c[0], c[1], c[2])
    }

    public init(diagonal: SIMD3<Float>) {
        columns = (SIMD3(diagonal.x, 0, 0), SIMD3(0, diagonal.y, 0), SIMD3(0, 0, diagonal.z))
    }

    /// The element in `column`, `row`.
    public subscript(column: Int, row: Int) -> Float {
        let c = column == 0 ? columns.0 : (column == 1 ? columns.1 : columns.2)
        return c[row]
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(columns.0)
        hasher.combine(columns.1)
        hasher.combine(columns.2)
    }
}

// swift-format-ignore: TypeNamesShouldBeCapitalized
public typealias simd_float3x3 = matrix_float3x3

extension CameraIntrinsics {
    /// K as Apple passes it: fx, fy on the diagonal, cx, cy in the third column.
    public var cameraMatrix: matrix_float3x3 {
        matrix_float3x3(
            columns: (SIMD3(Float(fx), 0, 0), SIMD3(0, Float(fy), 0), SIMD3(Float(cx), Float(cy), 1)))
    }

    /// From K as Apple passes it (column-major).
    public init(cameraMatrix k: matrix_float3x3) {
        self.init(
            fx: Double(k[0, 0]), fy: Double(k[1, 1]), cx: Double(k[2, 0]) / Double(nonZero(k[2, 2])),
            cy: Double(k[2, 1]) / Double(nonZero(k[2, 2])))
    }
}

private func nonZero(_ v: Float) -> Float { v == 0 ? 1 : v }
