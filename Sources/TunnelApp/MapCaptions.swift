import TunnelContainment
import TunnelGeo
import TunnelMaps
import TunnelReports

/// The two ends of the tunnel in words under a printed map, as the SVG picture has them: what each end is,
/// its coordinate, and its time zone with the offset from UTC.
///
/// ```
/// Where you dig: Skjern, Midtjylland, Denmark
///     55°57′00″N 8°30′00″E · Europe/Copenhagen (UTC+1)
/// Where you come out: South Pacific Ocean, 948.7 km from Antipodes Island (New Zealand)
///     55°57′00″S 171°30′00″W · Etc/GMT+11 (UTC−11)
/// ```
public enum MapCaptions {
  /// The caption lines for digging at `start`, whose placemark and its antipode's are `ends`, spelled in
  /// ASCII for a terminal that shows nothing else.
  public static func text(start: Coordinate, ends: (Placemark, Placemark), charset: Charset) -> String {
    let lines = [(MapAnnotation.digger, start, ends.0), (.target, start.antipode, ends.1)].map {
      annotation, point, placemark in
      "\(annotation.heading): \(PlacemarkText.headline(placemark))\n    "
        + "\(point.formatted(.dms(secondsPlaces: 0))) · \(PlaceText.timeZone(placemark.timeZone.identifier))"
    }.joined(separator: "\n")
    return charset == .ascii ? ASCIIText.converted(lines) : lines
  }
}
