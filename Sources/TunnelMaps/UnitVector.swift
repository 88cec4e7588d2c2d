#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The unit vector of a point given in radians: x towards 0° 0°, y towards 0° 90° E, z towards the
/// North Pole.
func unitVector(latitude: Double, longitude: Double) -> SIMD3<Double> {
  SIMD3(cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
}
