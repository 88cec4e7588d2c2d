"""The page `tunnel serve` answers at / works in a real browser: run by `Scripts/test --browser`.

    python Tests/browser/check_browser.py --tunnel PATH [--data DIR] [--web DIR] [--screenshots DIR]
    python Tests/browser/check_browser.py --url http://127.0.0.1:8123      (a server that is already running)

It starts its own server on a free port (with the page embedded in the binary; `--web DIR` serves the page from
DIR instead, through TUNNEL_WEB) and drives headless Chromium through Selenium like a user, with pointer drags,
clicks, key presses and typing. It reads the page's state back through its read-only `window.tunnel` hook:
1. The page loads with Leaflet, map tiles load, and the browser's console has no errors; with /leaflet/ blocked
   (Debian's libjs-leaflet missing) it says what to install instead; with /v1/antipode blocked it says so.
2. Dragging the digger moves him, and the X lands on his antipode (to 1e-6°); dragging the X or panning a map
   moves the other end the same way, and a panned map keeps its marker at its centre.
3. The radar button flips the top map to its geocode view (Denmark) and the bottom one (South Pacific Ocean)
   0.2 s later; pressing it again flips them back in the same order; a press while they turn is refused.
   The readouts say what `tunnel where` says; at sea a line leads to the nearest land. The antipodal land
   (New Zealand over Spain, in the screenshot's pixels) and the pairs come and go with the toggle, the a key and
   the permalink; Save picture downloads an SVG and a PNG of both ends.
4. A search for Wellington lists it; choosing it moves the digger there and updates the permalink; Копенгаген
   finds Copenhagen, coordinate text moves the digger, a typo ("Skjren") gets "did you mean" suggestions.
   "Where am I?" moves the digger to the browser's location, or says plainly that it was refused.
5. A permalink (#-41.29,174.78/7) puts the digger there, the X at its antipode, both maps at zoom 7; zooming
   one map zooms both; a new hash moves the digger.
6. Tab reaches the digger; an arrow key moves him and the X follows; the r key flips the maps.
7. Near the pole (#89.5,0/3) each map is Tunnel's own azimuthal map of its end, filling its box; dragging it moves
   the digger by the map's scale, and the X follows.
8. Across the whole run no request goes to any host but the server; / carries the Content-Security-Policy header.
9. In a narrow window the maps are stacked, the top one above the bottom one; on a phone both maps, the radar and
   both headlines fit the first screen.
It needs selenium (Scripts/test --browser makes a venv with it), /usr/bin/chromium and /usr/bin/chromedriver.
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "serve"))
from tunnel_server import ServerError, TunnelServer  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
WIDE = (1400, 900)
NARROW = (420, 900)
START = "#56.55,8.32/5"
passed, failed = [], []


def check(condition, label, detail=""):
    if condition:
        passed.append(label)
        print("ok   " + label, flush=True)
    else:
        failed.append(label)
        print("FAIL " + label + (": " + detail if detail else ""), flush=True)
    return condition


def attempt(label, function, *arguments):
    """Runs one check; an exception (a timeout waiting for the page, say) is that check failing, with the reason."""
    started = time.monotonic()
    try:
        function(*arguments)
    except Exception as error:  # the page not doing what a user expects is a failure to report, then go on
        check(False, label, "%s: %s" % (type(error).__name__, str(error).strip().split("\n")[0]))
    print("     (%s: %.1f s)" % (label, time.monotonic() - started), flush=True)


def antipode(point):
    lon = point["lon"] + 180
    lon = (lon + 180) % 360 - 180
    return {"lat": -point["lat"], "lon": lon}


def lon_difference(a, b):
    return abs((a - b + 180) % 360 - 180)


def close(a, b, tolerance):
    return abs(a["lat"] - b["lat"]) <= tolerance and lon_difference(a["lon"], b["lon"]) <= tolerance


class Page:
    """One headless Chromium on the server's page, with every request URL and console message it saw."""

    def __init__(self, base):
        self.base = base
        self.requests = []
        self.console = []
        self.console_mark = 0
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=%d,%d" % WIDE, "--lang=en-US", "--no-first-run",
                         "--disable-background-networking", "--disable-component-update",
                         "--disable-default-apps", "--disable-sync", "--disable-extensions"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.set_window_size(*WIDE)
        self.driver.set_page_load_timeout(30)

    def quit(self):
        self.driver.quit()

    def open(self, hash_text="", size=WIDE):
        """A fresh load of the page (through about:blank, so even a hash-only change reloads it)."""
        self.driver.get("about:blank")
        if tuple(self.driver.get_window_size().values()) != size:
            self.driver.set_window_size(*size)
        self.driver.get(self.base + "/" + hash_text)
        self.wait_ready()

    def wait(self, condition, seconds=20, message=""):
        return WebDriverWait(self.driver, seconds, poll_frequency=0.05).until(lambda _: condition(), message)

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def ready(self):
        return bool(self.js("return !!(window.tunnel && window.tunnel.ready())"))

    def wait_ready(self, seconds=30):
        self.wait(self.ready, seconds, "the page never became ready (window.tunnel.ready())")

    def digger(self):
        return self.js("return window.tunnel.digger()")

    def target(self):
        return self.js("return window.tunnel.target()")

    def zoom(self):
        return self.js("return window.tunnel.zoom()")

    def element(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def text(self, css):
        return self.element(css).text

    def collect_logs(self):
        """Moves the browser's console messages and the requests it sent since the last call into self."""
        for entry in self.driver.get_log("browser"):
            self.console.append(entry)
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Network.requestWillBeSent":
                self.requests.append(message["params"]["request"]["url"])

    def console_errors(self, since=0, allowed=()):
        return [entry["message"] for entry in self.console[since:]
                if entry.get("level") == "SEVERE" and not any(text in entry["message"] for text in allowed)]

    def tiles_loaded(self):
        return self.js("return document.querySelectorAll('#top-map img.leaflet-tile-loaded').length"
                       " + ':' + document.querySelectorAll('#bottom-map img.leaflet-tile-loaded').length")


# 1. Load


def check_load(page):
    page.open(START)
    page.wait(lambda: all(int(n) > 0 for n in page.tiles_loaded().split(":")), 30, "no tiles loaded")
    has_leaflet = page.js("return typeof L === 'object' && typeof L.map === 'function' && !!L.version")
    check(has_leaflet, "1. Leaflet is loaded", "window.L is missing")
    top, bottom = (int(n) for n in page.tiles_loaded().split(":"))
    check(top > 0 and bottom > 0, "1. map tiles load on both maps", "%d top, %d bottom" % (top, bottom))
    digger, target = page.digger(), page.target()
    check(close(digger, {"lat": 56.55, "lon": 8.32}, 1e-9) and close(target, antipode(digger), 1e-9),
          "1. the digger starts at #56.55,8.32 and the X at its antipode", repr((digger, target)))
    readout = page.text("#bottom-readout")
    check("South Pacific Ocean" in readout, "1. the bottom readout names the South Pacific Ocean", repr(readout))
    label = page.js("var t = document.querySelector('#bottom-map .leaflet-tooltip.place-label');"
                    " return t ? t.textContent : null;")
    words = page.js("return document.querySelector('#bottom-readout .where').textContent;")
    check(label == words and "South Pacific Ocean" in (label or ""),
          "1. the place under the X is labelled on the map with the readout's words", repr((label, words)))
    notice = page.element("#notice")
    check(not notice.is_displayed(), "1. no notice is shown", repr(notice.text))
    page.collect_logs()
    errors = page.console_errors()
    check(not errors, "1. the browser console has no errors", "; ".join(errors))


# 2. Dragging the digger


def drag(page, element, dx, dy, steps=10):
    actions = ActionChains(page.driver, duration=20)
    actions.move_to_element(element).click_and_hold()
    for _ in range(steps):
        actions.move_by_offset(dx / steps, dy / steps)
    actions.release().perform()


def check_drag(page):
    page.open(START)
    before = page.digger()
    drag(page, page.element("#digger"), 90, 60)
    page.wait_ready()
    digger, target = page.digger(), page.target()
    check(not close(digger, before, 0.5), "2. dragging the digger moves him",
          "before %r, after %r" % (before, digger))
    check(digger["lat"] < before["lat"] and lon_difference(digger["lon"], before["lon"]) > 0.5,
          "2. he moves the way he was dragged (south-east)", "before %r, after %r" % (before, digger))
    check(close(target, antipode(digger), 1e-6), "2. the X is at the digger's antipode (1e-6°)",
          "digger %r, X %r, antipode %r" % (digger, target, antipode(digger)))
    # The bottom marker drags too, and the digger follows it.
    before = page.target()
    drag(page, page.element("#target"), -70, -40)
    page.wait_ready()
    digger, target = page.digger(), page.target()
    check(not close(target, before, 0.5) and close(digger, antipode(target), 1e-6),
          "2. dragging the X moves it, and the digger follows to its antipode", repr((before, target, digger)))
    # Panning the top map keeps the digger at its centre and the X on his antipode.
    before = page.digger()
    map_box = page.element("#top-map")
    actions = ActionChains(page.driver, duration=20)
    actions.move_to_element_with_offset(map_box, -120, 80).click_and_hold()
    for _ in range(10):
        actions.move_by_offset(-10, -6)
    actions.release().perform()
    page.wait_ready()
    digger, target = page.digger(), page.target()
    centre = page.js("var c = document.querySelector('#top-map').getBoundingClientRect();"
                     "var m = document.querySelector('#digger').getBoundingClientRect();"
                     "return [c.left + c.width / 2, c.top + c.height / 2, m.left + 17, m.top + 36];")
    check(not close(digger, before, 0.5) and close(target, antipode(digger), 1e-6),
          "2. panning the top map moves the digger, and the X follows", repr((before, digger, target)))
    check(abs(centre[0] - centre[2]) <= 2 and abs(centre[1] - centre[3]) <= 2,
          "2. after a pan the digger is at the top map's centre", repr(centre))


# 3. The radar


RECORD_FLIPS = """
window.__flips = [];
for (const id of ['top-card', 'bottom-card']) {
  const card = document.getElementById(id);
  for (const type of ['transitionstart', 'transitionend']) {
    card.addEventListener(type, (event) => {
      if (event.target === card && event.propertyName === 'transform') {
        window.__flips.push({card: id, type: type, time: performance.now()});
      }
    });
  }
}
"""


def flip_times(page):
    """{(card, type): [times in ms]} of the cards' transform transitions recorded so far."""
    times = {}
    for event in page.js("return window.__flips"):
        times.setdefault((event["card"], event["type"]), []).append(event["time"])
    return times


def wait_flipped(page, flipped):
    page.wait(lambda: page.js("return window.tunnel.flipped() === arguments[0] && !window.tunnel.flipping()"
                              " && document.querySelectorAll('.card.flipped').length === arguments[1]",
                              flipped, 2 if flipped else 0), 10, "the cards did not finish flipping")
    page.wait(lambda: len(flip_times(page).get(("bottom-card", "transitionend"), [])) >= (1 if flipped else 2),
              5, "the bottom card's transition did not end")


def check_stagger(page, number, what):
    times = flip_times(page)
    top = times.get(("top-card", "transitionstart"), [])
    bottom = times.get(("bottom-card", "transitionstart"), [])
    if not check(len(top) >= number and len(bottom) >= number, "3. both maps turn in 3-D (%s)" % what,
                 repr(times)):
        return
    delay = bottom[number - 1] - top[number - 1]
    check(170 <= delay <= 700, "3. the bottom map turns 0.2 s after the top one (%s)" % what,
          "%.0f ms after" % delay)


def check_radar(page):
    page.open(START)
    page.js(RECORD_FLIPS)
    radar = page.element("#radar")
    check(radar.get_attribute("aria-label"), "3. the radar button has an aria-label")
    transform = page.js("var s = getComputedStyle(document.querySelector('#top-card .front'));"
                        "return [getComputedStyle(document.querySelector('.flipper')).perspective,"
                        " s.backfaceVisibility];")
    check(transform[0] != "none" and transform[1] == "hidden",
          "3. the maps' containers have a perspective and hidden back faces", repr(transform))
    ActionChains(page.driver).move_to_element(radar).click().perform()
    wait_flipped(page, True)
    top_geo, bottom_geo = page.element("#top-geo"), page.element("#bottom-geo")
    check(top_geo.is_displayed() and not page.element("#top-map").is_displayed(),
          "3. the top map shows its geocode view instead of the map")
    check("Denmark" in top_geo.text, "3. the top geocode view says Denmark", repr(top_geo.text))
    check("South Pacific Ocean" in bottom_geo.text, "3. the bottom geocode view says South Pacific Ocean",
          repr(bottom_geo.text))
    check("Time zone" in top_geo.text and "Europe/Copenhagen" in top_geo.text,
          "3. the top geocode view gives the time zone", repr(top_geo.text))
    check("min" in bottom_geo.text and "km" in bottom_geo.text,
          "3. the geocode view gives the tunnel's length and fall time", repr(bottom_geo.text))
    check(page.js("return getComputedStyle(document.getElementById('top-card')).transform") != "none",
          "3. the flipped card is turned (a 3-D transform)")
    check_stagger(page, 1, "flipping over")
    ActionChains(page.driver).move_to_element(page.element("#radar")).click().perform()
    wait_flipped(page, False)
    check(page.element("#top-map").is_displayed() and page.element("#bottom-map").is_displayed()
          and not page.element("#top-geo").is_displayed(), "3. pressing it again shows the maps again")
    check_stagger(page, 2, "flipping back")
    # A second press while the maps are turning is refused (the original's crash): they end up turned, both.
    radar = page.element("#radar")
    ActionChains(page.driver).move_to_element(radar).click().pause(0.1).click().perform()
    wait_flipped(page, True)
    time.sleep(1)
    states = page.js("return [window.tunnel.flipped(), document.querySelectorAll('.card.flipped').length,"
                     " document.getElementById('radar').getAttribute('aria-pressed')]")
    check(states == [True, 2, "true"], "3. a second press while the maps turn is refused", repr(states))


def check_county(page):
    # Denver and Versailles: the geocode view names the county and the département.
    for view, expected in (("#39.74,-104.99/6", "County\nDenver County"), ("#48.80,2.13/6", "Département\nYvelines (FR-78)")):
        page.open(view)
        page.js(RECORD_FLIPS)
        ActionChains(page.driver).move_to_element(page.element("#radar")).click().perform()
        wait_flipped(page, True)
        text = page.element("#top-geo").text
        check(expected in text, "3. the geocode view names the second-level region: " + expected.replace("\n", ": "),
              repr(text))


def check_headlines(page, tunnel, data):
    """Both readouts (and /reverse's display_name) name their end as `tunnel where` names it (its first line), on
    random points and on one the old page paired with another country's town ("Puerto Williams, Antarctica" off
    the Antarctic Peninsula)."""
    generator = random.Random(42)
    points = [(-64.5, -60.0)] + [(round(generator.uniform(-80, 80), 4), round(generator.uniform(-180, 180), 4))
                                 for _ in range(6)]
    for lat, lon in points:
        page.open("#%s,%s/5" % (lat, lon))
        page.wait(lambda: page.js("var w = document.querySelector('#bottom-readout .where');"
                                  " return !!w && w.textContent !== 'Thinking\u2026';"), 20, "no answer shown")
        shown = page.js("return ['top', 'bottom'].map(function (r) {"
                        " return document.querySelector('#' + r + '-readout .where').textContent; });")
        far = antipode({"lat": lat, "lon": lon})
        expected = [
            subprocess.run([tunnel, "where", "--data", data, "%r" % point["lat"], "%r" % point["lon"]],
                           capture_output=True, text=True, check=True).stdout.splitlines()[0].strip()
            for point in ({"lat": lat, "lon": lon}, far)
        ]
        check(shown == expected, "3. the readouts at %s, %s say what tunnel where says" % (lat, lon),
              repr((shown, expected)))
        named = [server_json(page.base, "/reverse?lat=%r&lon=%r&format=jsonv2" % (point["lat"], point["lon"]))
                 .get("display_name") for point in ({"lat": lat, "lon": lon}, far)]
        check(named == expected, "3. and so does the server's display_name", repr((named, expected)))


def check_way_to_land(page):
    """Never an empty sea: dug from Madrid, Paris, Chicago and Tokyo, the bottom map shows land under the X, or a
    line to the nearest land with its name and distance, on the map or on an arrow at its edge."""
    for city, lat, lon in (("Madrid", 40.4168, -3.7038), ("Paris", 48.8566, 2.3522), ("Chicago", 41.8781, -87.6298),
                           ("Tokyo", 35.6762, 139.6503)):
        page.open("#%s,%s/5" % (lat, lon))
        page.wait(lambda: page.js("var w = document.querySelector('#bottom-readout .where');"
                                  " return !!w && w.textContent !== 'Thinking\u2026';"), 20, "no answer shown")
        end = server_json(page.base, "/v1/antipode?lat=%s&lon=%s&precision=6" % (lat, lon))["to"]
        if end["land"]:
            line = page.js("return document.querySelectorAll('#bottom-map path.way-to-land').length;")
            check(line == 0, "3. from %s the X is on land, and no way to land is drawn" % city, repr(line))
            continue
        land = end["nearestLand"]
        name = land.get("name") or land.get("island") or (land.get("country") or {}).get("name")
        shown = page.js(
            "var map = document.getElementById('bottom-map').getBoundingClientRect();"
            "var line = document.querySelector('#bottom-map path.way-to-land');"
            "var words = document.querySelector('#bottom-map .way-words');"
            "function inside(e) { if (!e) return false; var r = e.getBoundingClientRect();"
            " return r.width > 0 && r.left >= map.left - 1 && r.right <= map.right + 1 && r.top >= map.top - 1"
            " && r.bottom <= map.bottom + 1; }"
            "function meets(e) { if (!e) return false; var r = e.getBoundingClientRect();"
            " return r.left < map.right && r.right > map.left && r.top < map.bottom && r.bottom > map.top; }"
            "return [meets(line), words && !words.hidden && inside(words) ? words.textContent : null];")
        check(shown[0] and shown[1] and name in shown[1] and "km" in shown[1],
              "3. from %s the bottom map draws the way to %s and says how far" % (city, name), repr((shown, name)))
        if city == "Paris":
            # The nearest place as well, Waitangi on the Chatham Islands, 551.5 km away and in view at zoom 5.
            place = page.js("var w = document.querySelector('#bottom-map .place-words');"
                            " return w && !w.hidden ? w.textContent : null;")
            check(place == "%s, %s km" % (end["nearestPlace"]["name"], "{:,.1f}".format(end["nearestPlace"]["distanceKm"])),
                  "3. and the nearest place, with its distance", repr((place, end["nearestPlace"])))
    # Dug from Chicago by a link without a zoom (as a search digs), the maps zoom out until Ile Saint-Paul is in
    # sight; with the zoom in the link they keep it and point the way from the edge.
    page.open("#41.8781,-87.6298")
    page.wait(lambda: page.js("return location.hash") == "#41.8781,-87.6298/4", 10, "the maps did not zoom out to zoom 4")
    words = page.js("var w = document.querySelector('#bottom-map .way-words');"
                    " return [w.textContent, w.classList.contains('at-edge')];")
    check(page.zoom() == 4 and words[0].startswith("Ile Saint-Paul") and not words[1],
          "3. a dig without a zoom zooms out to show the nearest land when it is near enough", repr(words))
    page.open("#41.8781,-87.6298/5")
    time.sleep(0.5)
    check(page.zoom() == 5, "3. a permalink's own zoom is kept", repr(page.zoom()))


# 3b. The antipodal overlay, its permalink, and the picture to save


def png_pixels(data):
    """Width, height and a pixel getter of an 8-bit RGB or RGBA PNG (what Chromium's screenshots are)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, chunks, header = 8, [], None
    while position < len(data):
        length = int.from_bytes(data[position:position + 4], "big")
        kind = data[position + 4:position + 8]
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height = int.from_bytes(header[0:4], "big"), int.from_bytes(header[4:8], "big")
    depth, colour, interlace = header[8], header[9], header[12]
    assert depth == 8 and colour in (2, 6) and interlace == 0, "an unusual PNG: %r" % header
    size = 4 if colour == 6 else 3
    raw = zlib.decompress(b"".join(chunks))
    stride = width * size
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = row[i - size] if i >= size else 0
            up = previous[i]
            corner = previous[i - size] if i >= size else 0
            if kind == 1:
                row[i] = (row[i] + left) & 255
            elif kind == 2:
                row[i] = (row[i] + up) & 255
            elif kind == 3:
                row[i] = (row[i] + (left + up) // 2) & 255
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                row[i] = (row[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(row)
        previous = row
    return width, height, lambda x, y: tuple(rows[y][x * size:x * size + 3])


def colour_at(page, role, lat, lon):
    """The median colour of a 7-pixel square of the page's screenshot round where a coordinate is drawn."""
    point = page.js("return window.tunnel.pointOn(arguments[0], arguments[1], arguments[2])", role, lat, lon)
    scale = page.js("return window.devicePixelRatio") or 1
    _, _, pixel = png_pixels(page.driver.get_screenshot_as_png())
    x, y = int(point["x"] * scale), int(point["y"] * scale)
    samples = sorted(pixel(x + dx, y + dy) for dx in range(-3, 4) for dy in range(-3, 4))
    return samples[len(samples) // 2]


def overlay_tiles_loaded(page, role):
    return page.js("return document.querySelectorAll('#' + arguments[0] + '-map .antipodal-tiles img.leaflet-tile-loaded')"
                   ".length", role)


def check_overlay(page):
    """The antipodal land: from Madrid, New Zealand turned through the Earth lies over Spain (the land's colour
    turns orange where they overlap), the pairs are named on both maps, and the toggle, the a key and the
    permalink (/overlay, /flipped) show, hide and restore it."""
    page.open("#40.4168,-3.7038/5/overlay")
    page.wait(lambda: overlay_tiles_loaded(page, "top") > 0 and overlay_tiles_loaded(page, "bottom") > 0, 30,
              "no overlay tiles loaded")
    page.wait(lambda: page.js("return Array.from(document.querySelectorAll('img.leaflet-tile'))"
                              ".every(function (i) { return i.complete; })"), 30, "tiles still loading")
    check(page.js("return window.tunnel.overlay()") and page.element("#overlay").get_attribute("aria-pressed") == "true",
          "3. #…/5/overlay opens with the antipodal land shown")
    # 39.6° N 4.0° W, in La Mancha: its antipode, 39.6° S 176.0° E, is in New Zealand's North Island.
    on = colour_at(page, "top", 39.6, -4.0)
    check(on[0] - on[2] > 60, "3. New Zealand's land, turned through the Earth, lies over Spain (orange on the land)",
          repr(on))
    pairs = server_json(page.base, "/v1/pairs?within=100&minPopulation=100000")
    names = {(pair["first"]["name"], pair["second"]["name"]) for pair in pairs}
    names |= {(b, a) for a, b in names}
    for role in ("top", "bottom"):
        page.wait(lambda: page.js("return document.querySelectorAll('#' + arguments[0] + '-map .pair-label').length",
                                  role) > 0, 10, "no pair named on the %s map" % role)
        labels = page.js("return Array.from(document.querySelectorAll('#' + arguments[0] + '-map .pair-label'))"
                         ".map(function (l) { return l.textContent; })", role)
        check(labels and all(tuple(label.split(" ↔ ")) in names for label in labels),
              "3. the %s map names pairs of places at opposite ends, as /v1/pairs lists them" % role, repr(labels))
    labels = page.js("return Array.from(document.querySelectorAll('#top-map .pair-label'))"
                     ".map(function (l) { return l.textContent; })")
    check(any(label.startswith("Córdoba ↔") for label in labels), "3. Córdoba and Hamilton are named over Spain",
          repr(labels))
    # Off with the toggle: the plain land again, no overlay, the permalink without /overlay.
    ActionChains(page.driver).move_to_element(page.element("#overlay")).click().perform()
    page.wait(lambda: page.js("return location.hash") == "#40.4168,-3.7038/5", 5, "the permalink kept /overlay")
    check(page.js("return document.querySelectorAll('.antipodal-tiles, .pair-place').length") == 0,
          "3. the toggle takes the overlay away, and /overlay from the permalink")
    off = colour_at(page, "top", 39.6, -4.0)
    check(off[0] - off[2] < 30, "3. without it Spain has the land's own colour", repr(off))
    # The a key shows it again.
    page.element("body").send_keys("a")
    page.wait(lambda: page.js("return location.hash") == "#40.4168,-3.7038/5/overlay", 5, "the a key did nothing")
    check(page.js("return window.tunnel.overlay()"), "3. the a key shows it again")
    # A permalink with both: the overlay on and the maps turned over.
    page.open("#-41.29,174.78/6/overlay/flipped")
    page.wait(lambda: page.js("return window.tunnel.flipped() && !window.tunnel.flipping()"), 10, "not flipped")
    check(page.js("return window.tunnel.overlay()") and "flipped" in page.element("#top-card").get_attribute("class"),
          "3. #…/overlay/flipped restores the overlay and the flipped maps")
    ActionChains(page.driver).move_to_element(page.element("#radar")).click().perform()
    page.wait(lambda: page.js("return location.hash") == "#-41.29,174.78/6/overlay", 5, "the permalink kept /flipped")
    check(True, "3. turning the maps back takes /flipped from the permalink")


def check_save_picture(page, folder):
    """Save picture: the SVG and the PNG of both ends arrive as downloads; the SVG names both ends as the
    readouts do, the PNG is a picture of twice its size."""
    page.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": folder})
    page.open("#43.53,-7.37/6")
    readouts = [page.text("#%s-readout .where" % role) for role in ("top", "bottom")]
    for kind in ("svg", "png"):
        path = os.path.join(folder, "tunnel-43.53_-7.37." + kind)
        ActionChains(page.driver).move_to_element(page.element("#save-" + kind)).click().perform()
        page.wait(lambda: os.path.exists(path) and os.path.getsize(path) > 0, 30, "no %s saved" % kind)
        time.sleep(0.3)
        with open(path, "rb") as file:
            data = file.read()
        if kind == "svg":
            text = data.decode("utf-8")
            check(text.startswith("<?xml") and all(words in text for words in readouts),
                  "3. Save picture: the SVG names both ends as the readouts do", repr(readouts))
        else:
            width, height, pixel = png_pixels(data)
            check(width == 1920 and height > 1000, "3. Save picture: the PNG is the picture at twice its size",
                  repr((width, height)))
            colours = {pixel(x, y) for x in range(0, width, 97) for y in range(0, height, 89)}
            check(len(colours) > 3, "3. and it is drawn, not blank", repr(len(colours)))
    check(page.text("#save-status").startswith("Saved tunnel-43.53_-7.37.png"), "3. the page says what it saved",
          page.text("#save-status"))


# 4. Search


def server_json(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as response:
        return json.loads(response.read())


def type_search(page, text):
    """Replaces the search box's text, as typed, and presses Enter."""
    field = page.element("#search-text")
    ActionChains(page.driver).click(field).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL) \
        .send_keys(Keys.BACKSPACE).send_keys(text).send_keys(Keys.ENTER).perform()


def check_search(page):
    page.open(START)
    expected = server_json(page.base, "/v1/find?q=Wellington&limit=8")[0]
    field = page.element("#search-text")
    check(field.get_attribute("aria-label"), "4. the search field has an aria-label")
    ActionChains(page.driver).click(field).send_keys("Wellington").send_keys(Keys.ENTER).perform()
    page.wait(lambda: page.driver.find_elements(By.CSS_SELECTOR, "#search-results button"), 15, "no results")
    results = page.driver.find_elements(By.CSS_SELECTOR, "#search-results button")
    first = results[0]
    check("Wellington" in first.text, "4. the first result is Wellington", repr(first.text))
    check("population" in first.text, "4. the results give region, country and population", repr(first.text))
    ActionChains(page.driver).move_to_element(first).click().perform()
    page.wait(lambda: close(page.digger(), {"lat": expected["latitude"], "lon": expected["longitude"]}, 0.01),
              10, "the digger did not move to Wellington")
    page.wait_ready()
    digger = page.digger()
    check(close(digger, {"lat": expected["latitude"], "lon": expected["longitude"]}, 0.01),
          "4. choosing Wellington moves the digger there", repr((digger, expected)))
    check(close(page.target(), antipode(digger), 1e-6), "4. the X follows to Wellington's antipode")
    hash_text = page.js("return location.hash")
    lat, lon = (float(v) for v in hash_text.lstrip("#").split("/")[0].split(","))
    check(close({"lat": lat, "lon": lon}, digger, 1e-4), "4. the permalink follows", hash_text)
    type_search(page, "Копенгаген")
    page.wait(lambda: "Copenhagen" in page.text("#search-results"), 15, "no Copenhagen for Копенгаген")
    check(True, "4. a name in Cyrillic finds Copenhagen")
    type_search(page, "55.95, 8.5")
    page.wait(lambda: close(page.digger(), {"lat": 55.95, "lon": 8.5}, 1e-6), 15, "no move to 55.95, 8.5")
    check(True, "4. coordinate text moves the digger there")
    type_search(page, "Skjren")
    page.wait(lambda: "did you mean" in page.text("#search-panel").lower(), 15, "no 'did you mean'")
    suggestions = page.driver.find_elements(By.CSS_SELECTOR, "#search-panel button.suggestion")
    message = page.text("#search-panel")
    check("did you mean" in message.lower() and ("Skjren" in message),
          "4. a typo gets 'did you mean'", repr(message))
    check(len(suggestions) > 0, "4. the suggestions are buttons", repr(message))
    if suggestions:
        name = suggestions[0].text
        ActionChains(page.driver).move_to_element(suggestions[0]).click().perform()
        page.wait(lambda: page.driver.find_elements(By.CSS_SELECTOR, "#search-results button"), 15, "no results")
        check(name in page.text("#search-results"), "4. choosing a suggestion searches for it", name)


def check_locate(page):
    """'Where am I?' with the browser's location set to Skjern and the permission granted, as a user would."""
    page.open("#-41.29,174.78/5")
    page.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": page.base, "permissions": ["geolocation"]})
    page.driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                                {"latitude": 55.95, "longitude": 8.5, "accuracy": 10})
    button = page.element("#locate")
    check(button.get_attribute("aria-label"), "4. the 'Where am I?' button has an aria-label")
    ActionChains(page.driver).move_to_element(button).click().perform()
    page.wait(lambda: close(page.digger(), {"lat": 55.95, "lon": 8.5}, 1e-6), 15, "the digger did not move")
    page.wait_ready()
    check(close(page.target(), antipode(page.digger()), 1e-6), "4. 'Where am I?' moves the digger to the browser's"
          " location, and the X follows", repr((page.digger(), page.target())))
    page.driver.execute_cdp_cmd("Emulation.clearGeolocationOverride", {})
    page.driver.execute_cdp_cmd("Browser.setPermission", {"origin": page.base, "setting": "denied",
                                                          "permission": {"name": "geolocation"}})
    ActionChains(page.driver).move_to_element(button).click().perform()
    page.wait(lambda: page.element("#search-panel").is_displayed()
              and "not allowed" in page.text("#search-message"), 15, "no message when refused")
    check(True, "4. a refused 'Where am I?' says so plainly")
    page.driver.execute_cdp_cmd("Browser.resetPermissions", {})


def check_without_leaflet(page):
    """With /leaflet/ unreachable (Debian's libjs-leaflet missing), the page says what to install."""
    page.collect_logs()
    page.driver.execute_cdp_cmd("Network.enable", {})
    page.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/leaflet/*"]})
    try:
        page.driver.get("about:blank")
        page.driver.get(page.base + "/" + START)
        page.wait(lambda: page.element("#notice").is_displayed(), 15, "no notice")
        notice = page.text("#notice")
        check("libjs-leaflet" in notice, "1. without Leaflet the page says to install libjs-leaflet", repr(notice))
        check(page.js("return window.tunnel.ready() === false"), "1. and it does not break")
    finally:
        page.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        page.collect_logs()
        page.console_mark = len(page.console)


def check_failing_answer(page):
    """With /v1/antipode unreachable the page says so, instead of thinking for ever."""
    page.driver.execute_cdp_cmd("Network.enable", {})
    page.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/v1/antipode*"]})
    try:
        page.driver.get("about:blank")
        page.driver.get(page.base + "/" + START)
        page.wait(lambda: "Could not say where this is" in page.text("#top-readout"), 15, "no error shown")
        check(True, "1. a failing /v1/antipode is shown plainly")
        check(close(page.target(), antipode(page.digger()), 1e-9), "1. and the maps still work")
    finally:
        page.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        page.collect_logs()
        page.console_mark = len(page.console)


# 5. Permalink


def check_permalink(page):
    page.open("#-41.29,174.78/7")
    digger, target = page.digger(), page.target()
    check(close(digger, {"lat": -41.29, "lon": 174.78}, 1e-9), "5. #-41.29,174.78/7 puts the digger there",
          repr(digger))
    check(close(target, antipode(digger), 1e-6), "5. and the X at its antipode", repr(target))
    zooms = page.js("return window.tunnel.mapZooms()")
    check(page.zoom() == 7 and zooms == {"top": 7, "bottom": 7}, "5. both maps at zoom 7", repr(zooms))
    # Zooming one map (its + button) zooms the other with it, each still centred on its marker.
    ActionChains(page.driver).move_to_element(page.element("#top-map .leaflet-control-zoom-in")).click().perform()
    page.wait(lambda: page.js("return window.tunnel.mapZooms()") == {"top": 8, "bottom": 8}, 10, "no zoom")
    check(page.zoom() == 8 and close(page.digger(), {"lat": -41.29, "lon": 174.78}, 1e-9),
          "5. zooming the top map zooms both, the digger staying put", repr(page.js("return window.tunnel.mapZooms()")))
    page.wait(lambda: page.js("return location.hash") == "#-41.29,174.78/8", 5, "the permalink kept the old zoom")
    # A new hash in the same page moves the digger too.
    page.js("location.hash = '#48.8566,2.3522/6'")
    page.wait(lambda: close(page.digger(), {"lat": 48.8566, "lon": 2.3522}, 1e-9), 10, "no move on hashchange")
    check(page.zoom() == 6 and close(page.target(), antipode(page.digger()), 1e-6),
          "5. a hash change moves the digger and zooms", repr((page.digger(), page.zoom())))


# 6. Keyboard


def check_keyboard(page):
    page.open(START)
    ActionChains(page.driver).click(page.element("h1")).perform()
    reached = False
    for _ in range(25):
        ActionChains(page.driver).send_keys(Keys.TAB).perform()
        if page.js("return document.activeElement && document.activeElement.id") == "digger":
            reached = True
            break
    check(reached, "6. Tab reaches the digger")
    if not reached:
        page.js("document.getElementById('digger').focus()")
    label = page.element("#digger").get_attribute("aria-label") or ""
    check("digger" in label.lower(), "6. the digger has an aria-label", repr(label))
    before = page.digger()
    ActionChains(page.driver).send_keys(Keys.ARROW_RIGHT).perform()
    page.wait_ready()
    after = page.digger()
    check(after["lon"] > before["lon"] + 0.1 and abs(after["lat"] - before["lat"]) < 1e-9,
          "6. ArrowRight moves the digger east", repr((before, after)))
    ActionChains(page.driver).send_keys(Keys.ARROW_UP).perform()
    page.wait_ready()
    moved = page.digger()
    check(moved["lat"] > after["lat"] + 0.1, "6. ArrowUp moves him north", repr((after, moved)))
    check(close(page.target(), antipode(moved), 1e-6), "6. the X follows", repr(page.target()))
    check(page.js("return document.activeElement.id") == "digger", "6. the digger keeps the focus")
    page.js(RECORD_FLIPS)
    ActionChains(page.driver).send_keys("r").perform()
    wait_flipped(page, True)
    check(page.js("return window.tunnel.flipped()"), "6. the r key flips the maps")
    ActionChains(page.driver).send_keys("r").perform()
    wait_flipped(page, False)
    check(not page.js("return window.tunnel.flipped()"), "6. r again flips them back")
    field = page.element("#search-text")
    ActionChains(page.driver).click(field).send_keys("r").perform()
    time.sleep(0.3)
    check(not page.js("return window.tunnel.flipped()") and field.get_attribute("value") == "r",
          "6. r typed in the search box is just a letter")


# 7. Near the pole


def great_circle_km(a, b):
    p1, p2 = math.radians(a["lat"]), math.radians(b["lat"])
    dl = math.radians(b["lon"] - a["lon"])
    cosine = math.sin(p1) * math.sin(p2) + math.cos(p1) * math.cos(p2) * math.cos(dl)
    return 6371.0088 * math.acos(max(-1.0, min(1.0, cosine)))


def polar_views(page):
    return page.js("return ['top', 'bottom'].map(function (r) {"
                   " var map = document.getElementById(r + '-map'), v = map.querySelector('.polar-view');"
                   " var a = map.getBoundingClientRect(), b = v.getBoundingClientRect();"
                   " return {shown: !v.hidden && b.width > 0, loaded: v.complete && v.naturalWidth > 0,"
                   " src: v.getAttribute('src') || '', natural: [v.naturalWidth, v.naturalHeight],"
                   " map: [a.left, a.top, a.width, a.height], view: [b.left, b.top, b.width, b.height]}; });")


def check_polar(page):
    """Beyond Web Mercator's edge each map is Tunnel's own azimuthal map of its end at full size; dragging it
    digs elsewhere as dragging the tiles does; the readouts keep the true coordinate."""
    page.open("#89.5,0/3")
    page.wait(lambda: all(view["shown"] and view["loaded"] for view in polar_views(page)), 20,
              "the polar views did not load")
    views = polar_views(page)
    for role, view in zip(("top", "bottom"), views):
        end = "digger" if role == "top" else "target"
        check("lat=89.5&lon=0&end=" + end in view["src"], "7. near the pole the %s map is Tunnel's map of its end" % role,
              view["src"])
        check(all(abs(a - b) < 1.5 for a, b in zip(view["map"], view["view"]))
              and abs(view["natural"][0] - view["map"][2]) < 1.5 and abs(view["natural"][1] - view["map"][3]) < 1.5,
              "7. and it fills the map's box at full size", repr((view["map"], view["view"], view["natural"])))
    check(close(page.digger(), {"lat": 89.5, "lon": 0}, 1e-9), "7. the digger keeps his true latitude",
          repr(page.digger()))
    check("89.500000° N" in page.text("#top-readout") and "89.500000° S" in page.text("#bottom-readout"),
          "7. the readouts show the true coordinates", page.text("#top-readout") + " / " + page.text("#bottom-readout"))
    # A drag of 120 px to the left moves the digger 120 px' worth of the map's scale east along his circle.
    before = page.digger()
    view = page.element("#top-map .polar-view")
    ActionChains(page.driver).move_to_element(view).click_and_hold().move_by_offset(-60, 0).move_by_offset(-60, 0) \
        .release().perform()
    page.wait(lambda: not close(page.digger(), before, 1e-6), 10, "the drag did not move the digger")
    page.wait_ready()
    after = page.digger()
    scale = page.js("return 40075016.686 / (256 * Math.pow(2, window.tunnel.zoom())) * Math.cos(85.0511287798 * Math.PI / 180)")
    moved = great_circle_km(before, after)
    check(abs(moved - 120 * scale / 1000) < 0.05 * 120 * scale / 1000 and after["lon"] > before["lon"],
          "7. dragging the polar view 120 px left digs %.0f km to the east" % (120 * scale / 1000),
          repr((before, after, moved)))
    check(close(page.target(), antipode(after), 1e-6), "7. the X follows to the new antipode", repr(page.target()))
    page.wait(lambda: all(view["loaded"] and "lat=%s" % round(after["lat"], 5) in view["src"] for view in polar_views(page)),
              20, "the polar views were not drawn again")
    check(True, "7. both polar views are drawn again for the new ends")
    page.open(START)
    check(not any(view["shown"] for view in polar_views(page)), "7. away from the poles the tiles are back")


# 8. Hosts and headers


def check_hosts(page, base):
    page.collect_logs()
    server = urllib.parse.urlsplit(base)
    others = sorted({url for url in page.requests
                     if not url.startswith(("data:", "blob:", "about:"))
                     and urllib.parse.urlsplit(url).netloc != server.netloc})
    check(page.requests and not others, "8. every request went to the server (%d requests)" % len(page.requests),
          "; ".join(others[:10]))
    paths = {urllib.parse.urlsplit(url).path for url in page.requests}
    check(not any(path == "/favicon.ico" for path in paths), "8. no request for /favicon.ico")
    with urllib.request.urlopen(base + "/", timeout=30) as response:
        policy = response.headers.get("Content-Security-Policy", "")
        kind = response.headers.get("Content-Type", "")
    check("default-src 'self'" in policy and "script-src 'self'" in policy,
          "8. / carries the Content-Security-Policy header", repr(policy))
    check(kind.startswith("text/html"), "8. / is HTML", kind)


# 9. Narrow window


def check_narrow(page):
    page.open(START, NARROW)
    boxes = page.js("return ['top-map', 'bottom-map', 'radar'].map(function (id) {"
                    " var r = document.getElementById(id).getBoundingClientRect();"
                    " return [r.left, r.top, r.right, r.bottom]; });")
    top, bottom, radar = boxes
    check(top[3] <= bottom[1], "9. in a 420 px window the top map is above the bottom one", repr(boxes))
    check(top[3] <= radar[1] and radar[3] <= bottom[1], "9. the radar sits between them", repr(boxes))
    check(top[2] - top[0] > 300, "9. the maps use the window's width", repr(boxes))
    page.open(START, WIDE)
    top = page.js("return document.getElementById('top-map').getBoundingClientRect().toJSON()")
    bottom = page.js("return document.getElementById('bottom-map').getBoundingClientRect().toJSON()")
    check(top["right"] <= bottom["left"] and abs(top["top"] - bottom["top"]) < 2,
          "9. in a 1400 px window the maps are side by side", repr((top, bottom)))


PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}


def check_phone(page):
    """On a phone (390 × 844) the header fits the width, and both maps, the radar and both readouts are on the
    first screen: nothing needs a scroll past a map."""
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    try:
        page.open("#43.53,-7.37/6")
        layout = page.js("return {width: innerWidth, height: innerHeight, scrollWidth: document.scrollingElement.scrollWidth,"
                         " boxes: ['top-map', 'top-readout', 'radar', 'bottom-map', 'bottom-readout'].map(function (id) {"
                         " var r = document.getElementById(id).getBoundingClientRect(); return [r.top, r.bottom, r.height]; })};")
        top_map, top_readout, radar, bottom_map, bottom_readout = layout["boxes"]
        check(layout["width"] == 390 and layout["scrollWidth"] <= layout["width"],
              "9. on a 390 px phone nothing runs off the side", repr(layout))
        check(max(box[1] for box in layout["boxes"]) <= layout["height"],
              "9. both maps, the radar and both readouts fit the phone's first screen", repr(layout))
        check(top_map[2] >= 150 and bottom_map[2] >= 150 and top_map[1] <= radar[0] <= bottom_map[0],
              "9. each map keeps 150 px or more, the radar between them", repr(layout))
        words = page.js("return ['top', 'bottom'].map(function (r) {"
                        " var w = document.querySelector('#' + r + '-readout .where'), b = w.getBoundingClientRect();"
                        " return [w.textContent, b.bottom <= innerHeight && b.width > 0]; });")
        check(all(shown for _, shown in words) and "Foz" in words[0][0] and "Christchurch" in words[1][0],
              "9. both headlines are in sight", repr(words))
    finally:
        page.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def wait_for_tiles(page):
    page.wait(lambda: page.js("return Array.from(document.querySelectorAll('img.leaflet-tile, img.polar-view'))"
                              ".every(function (i) { return i.complete; })"), 30, "tiles still loading")
    ActionChains(page.driver).move_to_element(page.element("h1")).perform()
    time.sleep(0.5)


def save(page, folder, name):
    path = os.path.join(folder, name)
    check(page.driver.save_screenshot(path), "the screenshot is saved to " + path)


def take_screenshots(page, folder):
    """The pictures in docs/serve.md, each of one state of the page."""
    os.makedirs(folder, exist_ok=True)
    # Galicia and, straight through the Earth, Christchurch: land at both ends; the top map turned over.
    page.open("#43.53,-7.37/6", WIDE)
    wait_for_tiles(page)
    page.js(RECORD_FLIPS)
    ActionChains(page.driver).move_to_element(page.element("#radar")).click().perform()
    wait_flipped(page, True)
    # Turn the bottom card back over so that the picture shows one geocode view and one map.
    page.js("var c = document.getElementById('bottom-card'); c.style.transition = 'none';"
            "c.classList.remove('flipped');")
    wait_for_tiles(page)
    save(page, folder, "tunnel-in-a-browser.png")
    # Chicago, dug without a zoom: the X at sea, the maps zoomed out to the nearest land and place.
    page.open("#41.8781,-87.6298", WIDE)
    page.wait(lambda: page.js("return location.hash").endswith("/4"), 10, "no zoom to the land")
    wait_for_tiles(page)
    save(page, folder, "tunnel-way-to-land.png")
    # Madrid with the antipodal land: New Zealand over Spain, Spain over New Zealand, the pairs named.
    page.open("#40.4168,-3.7038/5/overlay", WIDE)
    page.wait(lambda: overlay_tiles_loaded(page, "top") > 0, 30, "no overlay tiles")
    wait_for_tiles(page)
    save(page, folder, "tunnel-antipodal-land.png")
    # Near the North Pole: Tunnel's own maps in place of the tiles.
    page.open("#88.2,-42/2", WIDE)
    page.wait(lambda: all(view["loaded"] for view in polar_views(page)), 20, "no polar views")
    wait_for_tiles(page)
    save(page, folder, "tunnel-near-the-pole.png")
    # A phone.
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    try:
        page.open("#43.53,-7.37/6")
        wait_for_tiles(page)
        save(page, folder, "tunnel-on-a-phone.png")
    finally:
        page.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def run_all(arguments, base):
    page = Page(base)
    try:
        attempt("1. load", check_load, page)
        attempt("1. no Leaflet", check_without_leaflet, page)
        attempt("1. no answer", check_failing_answer, page)
        attempt("2. drag", check_drag, page)
        attempt("3. radar", check_radar, page)
        attempt("3. county", check_county, page)
        attempt("3. way to land", check_way_to_land, page)
        attempt("3. overlay", check_overlay, page)
        with tempfile.TemporaryDirectory() as folder:
            attempt("3. save picture", check_save_picture, page, folder)
        if arguments.tunnel:
            attempt("3. headlines", check_headlines, page, arguments.tunnel, arguments.data)
        attempt("4. search", check_search, page)
        attempt("4. where am I", check_locate, page)
        attempt("5. permalink", check_permalink, page)
        attempt("6. keyboard", check_keyboard, page)
        attempt("7. polar", check_polar, page)
        attempt("9. narrow", check_narrow, page)
        attempt("9. phone", check_phone, page)
        page.collect_logs()
        # From after the runs with requests blocked on. The typo search's 404 is the server's answer, not the page
        # failing, but Chrome logs it all the same.
        errors = page.console_errors(since=page.console_mark, allowed=("/v1/find?q=Skjren",))
        check(not errors, "the console has no errors after that, all run long", "; ".join(errors[:5]))
        if arguments.screenshots:
            attempt("screenshots", take_screenshots, page, arguments.screenshots)
        attempt("8. hosts", check_hosts, page, base)
    finally:
        page.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tunnel", help="the tunnel executable to serve with")
    parser.add_argument("--data", default=os.path.join(ROOT, "Data"), help="the place data folder")
    parser.add_argument("--web", help="serve the page from this folder (TUNNEL_WEB) instead of the embedded one")
    parser.add_argument("--url", help="test the server already running at this URL instead of starting one")
    parser.add_argument("--screenshots", help="save the pictures of the page docs/serve.md shows into this folder")
    arguments = parser.parse_args()
    if not arguments.tunnel and not arguments.url:
        parser.error("give --tunnel PATH or --url URL")
    started = time.monotonic()
    try:
        if arguments.url:
            run_all(arguments, arguments.url.rstrip("/"))
        else:
            if arguments.web:
                os.environ["TUNNEL_WEB"] = os.path.abspath(arguments.web)
            else:
                os.environ.pop("TUNNEL_WEB", None)
            with TunnelServer(arguments.tunnel, arguments.data, "--quiet") as server:
                print("serving at %s (pid %d)" % (server.url, server.pid), flush=True)
                run_all(arguments, server.url)
                check(server.process.poll() is None, "the server is still running after the browser",
                      "exit %s; stderr:\n%s" % (server.process.returncode, server.tail()))
    except ServerError as error:
        check(False, "the server starts and stays up", str(error))
    except WebDriverException as error:
        check(False, "Chromium starts under chromedriver", str(error).strip().split("\n")[0])
    print("check_browser: %.1f s" % (time.monotonic() - started))
    for label in failed:
        print("failed: " + label)
    print("%d passed, %d failed" % (len(passed), len(failed)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
