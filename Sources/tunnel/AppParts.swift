import TunnelApp
import TunnelCommandLine
import TunnelContainment
import TunnelGeo
import TunnelMaps

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// What the map commands build the Tunnel from: the map data, a renderer and a geocoder.
@MainActor
struct AppParts {
  let renderer: MapRenderer
  let reverseGeocoder: ReverseGeocoder
  let geocoder: GeoInfoViewController.Geocoder

  init(data: PlaceData) throws {
    do {
      renderer = try MapRenderer(data: MapData(data: data))
    } catch let error as PlaceDataError {
      throw CommandFailure(error)
    } catch let error as ProjectionError {
      throw CommandFailure(error)
    }
    reverseGeocoder = ReverseGeocoder(data: data)
    geocoder = GeoInfoViewController.geocoder(using: reverseGeocoder)
  }
}
