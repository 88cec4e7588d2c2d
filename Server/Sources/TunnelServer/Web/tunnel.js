/*
 * Tunnel in a browser: the page's behaviour.
 *
 * Two Leaflet maps: the digger on the top one, the red X at his antipode on the bottom one. Dragging either
 * marker, panning or zooming either map, a search, "Where am I?", the arrow keys on a focused marker and the URL
 * hash (#lat,lon/zoom) all move the digger; the other end follows. The radar button (or the r key) flips the top
 * map over to its geocode view and the bottom one 0.2 s later. Every word about a place comes from the server's
 * /v1/antipode and /v1/find; the only geography done here is the antipode of a coordinate, to place the X.
 */
(function () {
  "use strict";

  const MERCATOR_EDGE = 85.0511287798;
  const DEFAULT = { lat: 56.55, lon: 8.32, zoom: 5 };
  const MAX_ZOOM = 12;
  const FLIP_STAGGER_MS = 200;
  const FETCH_DELAY_MS = 250;
  const ATTRIBUTION = "Natural Earth, GSHHG, GeoNames";
  // The pairs the antipodal overlay marks: places of 100,000 people or more within 100 km of each other's
  // antipode (as `tunnel map --overlay` labels them); at most this many named at once on a map.
  const PAIRS_PATH = "/v1/pairs?within=100&minPopulation=100000&precision=5";
  const MAX_PAIR_LABELS = 8;

  const $ = (id) => document.getElementById(id);

  // ---------------------------------------------------------------------------------------------------------
  // Coordinates

  /** A longitude wrapped into [-180, 180). */
  function wrapLon(lon) {
    const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
    return wrapped === 180 ? -180 : wrapped;
  }

  function clampLat(lat) {
    return Math.max(-90, Math.min(90, lat));
  }

  function antipode(point) {
    return { lat: -point.lat, lon: wrapLon(point.lon + 180) };
  }

  /** `lon` shifted by whole turns to lie nearest `near`, so a map never jumps round the world. */
  function lonNear(lon, near) {
    return lon + 360 * Math.round((near - lon) / 360);
  }

  function formatCoordinate(point) {
    const lat = Math.abs(point.lat).toFixed(6) + "° " + (point.lat < 0 ? "S" : "N");
    const lon = Math.abs(point.lon).toFixed(6) + "° " + (point.lon < 0 ? "W" : "E");
    return lat + ", " + lon;
  }

  /** Short decimal text for the permalink: at most 5 decimals, no trailing zeros. */
  function short(value) {
    return String(Number(value.toFixed(5)));
  }

  function parseHash(hash) {
    let text = hash || "";
    try {
      text = decodeURIComponent(text);
    } catch (error) {
      return null;
    }
    // #lat,lon, then /zoom, then the overlay and the flipped maps as /overlay and /flipped, in either order.
    const match = /^#?\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)(?:\/(\d+(?:\.\d+)?)((?:\/(?:overlay|flipped))*))?\s*$/
      .exec(text);
    if (!match) {
      return null;
    }
    const lat = Number(match[1]);
    const lon = Number(match[2]);
    if (!(Math.abs(lat) <= 90) || !Number.isFinite(lon)) {
      return null;
    }
    const zoom = match[3] === undefined ? null : Math.max(0, Math.min(MAX_ZOOM, Math.round(Number(match[3]))));
    const flags = (match[4] || "").split("/");
    return { lat: lat, lon: wrapLon(lon), zoom: zoom, overlay: flags.includes("overlay"), flipped: flags.includes("flipped") };
  }

  // ---------------------------------------------------------------------------------------------------------
  // Words and numbers

  const numbers = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
  const oneDecimal = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

  function km(value) {
    return (value < 1000 ? oneDecimal.format(value) : numbers.format(value)) + " km";
  }

  function minutesSeconds(seconds) {
    const total = Math.round(seconds);
    return Math.floor(total / 60) + " min " + (total % 60) + " s";
  }

  function localTime(zone) {
    try {
      return new Intl.DateTimeFormat(undefined, {
        timeZone: zone, weekday: "short", hour: "2-digit", minute: "2-digit"
      }).format(new Date());
    } catch (error) {
      return null;
    }
  }

  /**
   * What a placemark is called: the server's headline, by the rule `tunnel where` prints its first line with
   * (a town only with its own country and only near enough to name the point; at sea the water and the way to
   * the nearest land).
   */
  function headline(placemark) {
    return placemark.headline || (placemark.land ? "Land" : "Open water");
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined && text !== null) {
      node.textContent = text;
    }
    return node;
  }

  function placeText(place) {
    let text = place.name + ", " + km(place.distanceKm) + " away";
    if (place.population) {
      text += " (population " + numbers.format(place.population) + ")";
    }
    return text;
  }

  /** Fills a geocode view (the back of a map) with what the server said about one end. */
  function renderPlacemark(view, placemark, answer, role) {
    view.replaceChildren();
    view.appendChild(element("h3", null, headline(placemark)));
    view.appendChild(element("p", "sub", (role === "top" ? "Where you dig: " : "Where you come out: ")
      + formatCoordinate({ lat: placemark.latitude, lon: placemark.longitude })));

    const list = element("dl");
    const row = (term, value) => {
      if (value) {
        list.appendChild(element("dt", null, term));
        list.appendChild(element("dd", null, value));
      }
    };
    if (placemark.land) {
      row("Place", placemark.nearestPlace ? placeText(placemark.nearestPlace) : "on land, far from any named place");
    } else if (placemark.inLake) {
      row("Place", "in a lake" + (typeof placemark.lake === "string" ? ": " + placemark.lake : ""));
      if (placemark.nearestPlace) {
        row("Nearest place", placeText(placemark.nearestPlace));
      }
    } else {
      row("Place", "at sea: " + (placemark.sea || "open water"));
      const land = placemark.nearestLand;
      if (land) {
        const where = [land.name || land.island, land.country && land.country.name].filter(Boolean).join(", ");
        row("Nearest land", where + ", " + km(land.distanceKm) + " away");
      }
      if (placemark.nearestPlace) {
        row("Nearest place", placeText(placemark.nearestPlace));
      }
    }
    if (placemark.subregion) {
      // The second level where the data has one: a US county, a French département.
      const label = placemark.country && placemark.country.code === "FR" ? "Département" : "County";
      row(label, placemark.subregion.name + (placemark.subregion.code ? " (" + placemark.subregion.code + ")" : ""));
    }
    if (placemark.region) {
      row("Region", placemark.region.name + (placemark.region.code ? " (" + placemark.region.code + ")" : ""));
    }
    if (placemark.country) {
      row("Country", placemark.country.name + (placemark.country.code ? " (" + placemark.country.code + ")" : ""));
    }
    if (placemark.timeZone && placemark.timeZone.identifier) {
      const zone = placemark.timeZone.identifier;
      const time = localTime(zone);
      row("Time zone", zone + (time ? ", " + time + " there now" : ""));
    }
    view.appendChild(list);

    const tunnel = element("p", "tunnel");
    tunnel.textContent = "The tunnel is " + km(answer.throughEarthKm) + " long through the Earth ("
      + km(answer.surfaceDistanceKm) + " along the surface)"
      + (answer.tunnel && answer.tunnel.fallSeconds
        ? "; a fall through it takes " + minutesSeconds(answer.tunnel.fallSeconds.prem) + "."
        : ".");
    view.appendChild(tunnel);
  }

  function renderMessage(view, className, text) {
    view.replaceChildren(element("p", className, text));
  }

  // ---------------------------------------------------------------------------------------------------------
  // Talking to the server

  /** GETs JSON from the server; a 4xx/5xx answer becomes an Error carrying the server's message and body. */
  async function getJSON(path, signal) {
    let response;
    try {
      response = await fetch(path, { signal: signal, headers: { Accept: "application/json" } });
    } catch (error) {
      if (error.name === "AbortError") {
        throw error;
      }
      throw new Error("The server did not answer (" + error.message + ").");
    }
    let body = null;
    try {
      body = await response.json();
    } catch (error) {
      body = null;
    }
    if (!response.ok) {
      const message = body && body.error && body.error.message
        ? body.error.message : "The server answered " + response.status + ".";
      const failure = new Error(message);
      failure.status = response.status;
      failure.body = body;
      throw failure;
    }
    return body;
  }

  // ---------------------------------------------------------------------------------------------------------
  // The page

  function start() {
    if (!window.L || !window.L.map) {
      const notice = $("notice");
      notice.textContent = "The maps need Leaflet: install Debian's libjs-leaflet (Scripts/setup does) and reload.";
      notice.hidden = false;
      document.body.classList.add("no-leaflet");
      window.tunnel = {
        digger: () => null, target: () => null, zoom: () => null, flipped: () => false, ready: () => false
      };
      return;
    }

    const initial = parseHash(location.hash) || DEFAULT;
    const state = {
      digger: { lat: clampLat(initial.lat), lon: wrapLon(initial.lon) },
      zoom: initial.zoom === null ? DEFAULT.zoom : initial.zoom,
      flipped: false,
      overlay: false,
      // The pairs of places at opposite ends, the most populous first: null until asked for, then a promise.
      pairs: null,
      flipping: false,
      answer: null,
      answerFor: null,
      // Set by a dig the user asked for by name or place (not a drag, not a permalink with its zoom): once its
      // answer is in, the maps zoom out to show the nearest land if it is near enough.
      fitPending: false,
      loading: false,
      error: null
    };

    // Set while the page itself moves a map, so that the map's events are not taken for the user's.
    let applying = 0;

    function makeEnd(role) {
      const isTop = role === "top";
      const first = isTop ? state.digger : antipode(state.digger);
      const map = L.map(role + "-map", {
        center: [first.lat, first.lon],
        zoom: state.zoom,
        minZoom: 0,
        maxZoom: MAX_ZOOM,
        keyboard: false,
        inertia: false,
        scrollWheelZoom: "center",
        doubleClickZoom: "center",
        touchZoom: "center",
        maxBounds: [[-MERCATOR_EDGE, -1e6], [MERCATOR_EDGE, 1e6]],
        maxBoundsViscosity: 1.0,
        worldCopyJump: false
      });
      map.attributionControl.setPrefix("Leaflet");
      L.tileLayer("/tiles/{z}/{x}/{y}.svg", {
        maxZoom: MAX_ZOOM,
        tileSize: 256,
        attribution: ATTRIBUTION
      }).addTo(map);
      const size = isTop ? [40, 40] : [32, 32];
      const anchor = isTop ? [17, 36] : [16, 16];
      const icon = L.icon({
        iconUrl: isTop ? "/app/digger.svg" : "/app/target.svg",
        iconSize: size,
        iconAnchor: anchor,
        className: isTop ? "marker digger" : "marker target"
      });
      const marker = L.marker([first.lat, first.lon], {
        icon: icon,
        draggable: true,
        autoPan: true,
        keyboard: true,
        alt: isTop ? "The digger" : "The red X",
        title: isTop
          ? "The digger: drag him, or use the arrow keys"
          : "Where the tunnel comes out: drag it, or use the arrow keys"
      }).addTo(map);
      const markerElement = marker.getElement();
      markerElement.setAttribute("role", "button");
      markerElement.id = isTop ? "digger" : "target";
      // At sea: the line to the nearest land and its mark, and the words for it (beside the land, or with an arrow
      // on the map's edge when the land is out of view).
      const way = L.layerGroup().addTo(map);
      // The antipodal overlay (shown by the toggle): the other side's land turned onto this one, and the pairs.
      const overlay = L.tileLayer("/tiles/antipodal/{z}/{x}/{y}.svg", {
        maxZoom: MAX_ZOOM,
        tileSize: 256,
        className: "antipodal-tiles",
        zIndex: 2
      });
      const pairs = L.layerGroup();
      const wayWords = element("div", "way-words");
      wayWords.hidden = true;
      map.getContainer().appendChild(wayWords);
      const placeWords = element("div", "way-words place-words");
      placeWords.hidden = true;
      map.getContainer().appendChild(placeWords);
      const polar = element("img", "polar-view");
      polar.alt = isTop ? "Tunnel's own map of where you dig, beyond the tiles' edge: drag it to dig elsewhere"
        : "Tunnel's own map of where you come out, beyond the tiles' edge: drag it to move the X";
      polar.hidden = true;
      map.getContainer().appendChild(polar);
      return {
        polar: polar,
        overlay: overlay,
        pairs: pairs,
        way: way,
        wayWords: wayWords,
        placeWords: placeWords,
        role: role,
        size: size,
        anchor: anchor,
        map: map,
        marker: marker,
        markerElement: markerElement,
        card: $(role + "-card"),
        geo: $(role + "-geo"),
        readout: $(role + "-readout")
      };
    }

    const top = makeEnd("top");
    const bottom = makeEnd("bottom");
    const ends = [top, bottom];
    ends.forEach(dragPolar);
    const other = (end) => (end === top ? bottom : top);
    /** The point an end's marker stands for: the digger on top, his antipode below. */
    const pointOf = (end) => (end === top ? state.digger : antipode(state.digger));

    // -- Moving ----------------------------------------------------------------------------------------------

    /**
     * Puts the digger at `point` and the X at its antipode. `source` is the end the user is moving (its marker
     * or its map is already where the user put it); `settled` is false for the steps of a drag.
     */
    function moveTo(point, source, settled = true) {
      state.fitPending = false;
      state.digger = { lat: clampLat(point.lat), lon: wrapLon(point.lon) };
      for (const end of ends) {
        if (end !== source) {
          place(end);
        }
      }
      afterMove(settled);
    }

    /** Digs at a point the user asked for (a search, "Where am I?", a permalink without a zoom). */
    function digAt(point) {
      moveTo(point, null);
      state.fitPending = true;
    }

    /**
     * After a dig the user asked for: at sea, the view zoomed out (both maps, at most three steps, never below
     * zoom 2) so that the nearest land is in sight, when that is near enough; otherwise the edge arrow says the way.
     */
    function fitToLand(answer) {
      let zoom = state.zoom;
      for (const end of ends) {
        const placemark = end === top ? answer.from : answer.to;
        const land = placemark && !placemark.land ? placemark.nearestLand : null;
        if (!land || Math.abs(pointOf(end).lat) > MERCATOR_EDGE) {
          continue;
        }
        const here = end.marker.getLatLng();
        const there = L.latLng(land.latitude, lonNear(land.longitude, here.lng));
        // A box centred on the marker (which stays at the map's middle) that holds the land.
        const opposite = L.latLng(Math.max(-MERCATOR_EDGE, Math.min(MERCATOR_EDGE, 2 * here.lat - there.lat)),
          2 * here.lng - there.lng);
        zoom = Math.min(zoom, end.map.getBoundsZoom(L.latLngBounds([there, opposite]), false, L.point(90, 60)));
      }
      if (zoom < state.zoom && zoom >= Math.max(2, state.zoom - 3)) {
        state.zoom = zoom;
        for (const end of ends) {
          place(end);
        }
        updatePolar(true);
        updatePermalink();
      }
    }

    /** Moves an end's marker and centres its map on it, staying near the map's current view (no jump round). */
    function place(end) {
      const point = pointOf(end);
      const latLng = L.latLng(point.lat, lonNear(point.lon, end.map.getCenter().lng));
      applying += 1;
      try {
        end.marker.setLatLng(latLng);
        end.map.setView(latLng, state.zoom, { animate: false });
      } finally {
        applying -= 1;
      }
    }

    /** `settled`: the move is over (not a step of a drag), so the permalink follows and the server is asked. */
    function afterMove(settled) {
      updateEdgeMarkers();
      updateReadouts();
      updateLabels();
      updatePolar(settled);
      if (settled) {
        updatePermalink();
        scheduleFetch();
      }
    }

    /** Where the user put an end's marker (or map centre), as the digger's point. */
    function diggerFrom(end, latLng) {
      const point = { lat: clampLat(latLng.lat), lon: wrapLon(latLng.lng) };
      return end === top ? point : antipode(point);
    }

    for (const end of ends) {
      // Dragging a marker: the other end follows as it goes; when it is let go its own map centres on it.
      end.marker.on("drag", () => {
        moveTo(diggerFrom(end, end.marker.getLatLng()), end, false);
      });
      end.marker.on("dragend", () => {
        moveTo(diggerFrom(end, end.marker.getLatLng()), end);
        applying += 1;
        try {
          end.map.panTo(end.marker.getLatLng(), { animate: true, duration: 0.3 });
        } finally {
          applying -= 1;
        }
      });

      // Panning a map: its marker stays at the centre, the other end follows.
      end.map.on("drag", () => {
        const centre = end.map.getCenter();
        end.marker.setLatLng(centre);
        moveTo(diggerFrom(end, centre), end, false);
      });
      end.map.on("dragend", () => {
        const centre = end.map.getCenter();
        end.marker.setLatLng(centre);
        moveTo(diggerFrom(end, centre), end);
      });

      // Zooming either map zooms both; the maps zoom about their centres, where the markers are.
      end.map.on("zoomend", () => {
        if (applying) {
          return;
        }
        state.zoom = end.map.getZoom();
        place(other(end));
        updatePolar(true);
        updatePermalink();
      });

      end.markerElement.addEventListener("keydown", (event) => onMarkerKey(end, event));
      // A view that changed (a zoom, a pan, the layout) may bring the land into view or take it out.
      end.map.on("moveend", () => {
        updateWay(end);
        updatePairs(end);
      });
    }

    // A map whose box changes size (the layout reflowing) keeps its centre, where its marker is.
    if (window.ResizeObserver) {
      const observer = new ResizeObserver(() => {
        for (const end of ends) {
          end.map.invalidateSize({ pan: false });
          place(end);
        }
        updatePolar(true);
      });
      for (const end of ends) {
        observer.observe(end.map.getContainer());
      }
    }

    // -- Keyboard --------------------------------------------------------------------------------------------

    function onMarkerKey(end, event) {
      if (event.altKey || event.ctrlKey || event.metaKey) {
        return;
      }
      const bounds = end.map.getBounds();
      const stepLat = Math.max(1e-4, (bounds.getNorth() - bounds.getSouth()) / 10);
      const stepLon = Math.max(1e-4, (bounds.getEast() - bounds.getWest()) / 10);
      const moves = {
        ArrowUp: [stepLat, 0], ArrowDown: [-stepLat, 0], ArrowLeft: [0, -stepLon], ArrowRight: [0, stepLon]
      };
      if (event.key in moves) {
        event.preventDefault();
        event.stopPropagation();
        const here = pointOf(end);
        const [dLat, dLon] = moves[event.key];
        const moved = { lat: clampLat(here.lat + dLat), lon: here.lon + dLon };
        moveTo(end === top ? moved : antipode(moved), null);
      } else if (event.key === "+" || event.key === "=" || event.key === "-") {
        event.preventDefault();
        event.stopPropagation();
        state.zoom = Math.max(0, Math.min(MAX_ZOOM, state.zoom + (event.key === "-" ? -1 : 1)));
        for (const each of ends) {
          place(each);
        }
        updatePolar(true);
        updatePermalink();
      }
    }

    document.addEventListener("keydown", (event) => {
      if (!["r", "R", "a", "A"].includes(event.key)) {
        return;
      }
      if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) {
        return;
      }
      const target = event.target;
      if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) {
        return;
      }
      event.preventDefault();
      if (event.key === "a" || event.key === "A") {
        setOverlay(!state.overlay);
      } else {
        toggleRadar();
      }
    });

    // -- Readouts, labels, permalink, poles -------------------------------------------------------------------

    /** The server's answer for where the digger is now; null while one is on its way, or when asking failed. */
    function answerInHand() {
      const fresh = state.answer && state.answerFor && samePoint(state.answerFor, state.digger) && !state.error;
      return fresh ? state.answer : null;
    }

    function updateReadouts() {
      const answer = answerInHand();
      for (const end of ends) {
        const point = pointOf(end);
        end.readout.replaceChildren();
        end.readout.appendChild(element("span", "coordinate", formatCoordinate(point)));
        let words;
        if (state.error) {
          words = state.error;
        } else if (answer) {
          words = headline(end === top ? answer.from : answer.to);
        } else {
          words = "Thinking…";
        }
        end.readout.appendChild(element("span", "where", words));
      }
      labelTarget(answer ? headline(answer.to) : null);
      for (const end of ends) {
        updateWay(end);
      }
      const facts = $("tunnel-facts");
      if (answer) {
        facts.textContent = km(answer.throughEarthKm) + " through the Earth"
          + (answer.tunnel && answer.tunnel.fallSeconds
            ? "; a fall takes " + minutesSeconds(answer.tunnel.fallSeconds.prem) : "");
      } else {
        facts.textContent = "";
      }
    }

    /** The way to land of an end for the answer in hand (none while one is on its way), for the map's view now. */
    function updateWay(end) {
      const answer = answerInHand();
      showWayToLand(end, answer ? (end === top ? answer.from : answer.to) : null);
    }

    /** The name of the nearest land as the text gives it: the place on it, its island, or its country. */
    function landName(land) {
      return land.name || land.island || (land.country && land.country.name) || "land";
    }

    /**
     * Never an empty sea: at sea, an end's map draws a line from the point to the nearest land, marks the land
     * with its name and distance (the words of the text's headline), and when the land is outside the view an
     * arrow on the map's edge points to it with the same words. Nothing on land, or while the answer is on its way.
     */
    function showWayToLand(end, placemark) {
      end.way.clearLayers();
      end.wayWords.hidden = true;
      end.placeWords.hidden = true;
      // Beyond the tiles' edge the polar view covers the map, and draws its own places.
      const polar = Math.abs(state.digger.lat) > MERCATOR_EDGE;
      const land = placemark && !placemark.land && !polar ? placemark.nearestLand : null;
      if (!land) {
        return;
      }
      const here = end.marker.getLatLng();
      const there = L.latLng(land.latitude, lonNear(land.longitude, here.lng));
      const words = landName(land) + ", " + km(land.distanceKm);
      L.polyline([here, there], { className: "way-to-land", interactive: false, dashArray: "6 6" }).addTo(end.way);
      L.circleMarker(there, { className: "nearest-land", radius: 5, interactive: false }).addTo(end.way);
      const size = end.map.getSize();
      const centre = L.point(size.x / 2, size.y / 2);
      const landPoint = end.map.latLngToContainerPoint(there);
      const inView = landPoint.x >= 0 && landPoint.y >= 0 && landPoint.x <= size.x && landPoint.y <= size.y;
      let at = landPoint;
      let text = words;
      if (!inView) {
        // The edge point on the way from the centre towards the land, a little inside the map, with an arrow.
        const toward = landPoint.subtract(centre);
        const scale = Math.min(
          (size.x / 2 - 24) / Math.max(Math.abs(toward.x), 1e-9),
          (size.y / 2 - 16) / Math.max(Math.abs(toward.y), 1e-9));
        at = centre.add(toward.multiplyBy(scale));
        const arrows = ["→", "↘", "↓", "↙", "←", "↖", "↑", "↗"];
        text = arrows[(Math.round(Math.atan2(toward.y, toward.x) / (Math.PI / 4)) + 8) % 8] + " " + words;
      }
      end.wayWords.textContent = text;
      end.wayWords.classList.toggle("at-edge", !inView);
      end.wayWords.hidden = false;
      // Beside the land on the side away from the X (whose own label is on its right), or centred on the edge
      // point; always inside the map.
      const width = end.wayWords.offsetWidth;
      const height = end.wayWords.offsetHeight;
      let left = !inView ? at.x - width / 2 : besideMark(at.x, width, size.x, at.x < centre.x);
      let top = at.y - height / 2;
      left = Math.max(4, Math.min(size.x - width - 4, left));
      top = Math.max(4, Math.min(size.y - height - 4, top));
      end.wayWords.style.left = left + "px";
      end.wayWords.style.top = top + "px";
      showNearestPlace(end, placemark, { left: left, top: top, right: left + width, bottom: top + height });
    }

    /** Where words `width` wide start beside a mark at `x`: on its left when asked and there is room, else on its
     * right, else on its left after all (the map's edge keeps them in). */
    function besideMark(x, width, mapWidth, leftFirst) {
      const left = x - 10 - width;
      const right = x + 10;
      if (leftFirst) {
        return left >= 4 || right + width > mapWidth - 4 ? left : right;
      }
      return right + width <= mapWidth - 4 || left < 4 ? right : left;
    }

    /**
     * At sea, the nearest named place too when it is in view and not where the land's mark is: a dot with its
     * name and distance beside it, clear of the land's words.
     */
    function showNearestPlace(end, placemark, taken) {
      const place = placemark.nearestPlace;
      if (!place || typeof place.latitude !== "number") {
        return;
      }
      const here = end.marker.getLatLng();
      const at = L.latLng(place.latitude, lonNear(place.longitude, here.lng));
      const point = end.map.latLngToContainerPoint(at);
      const size = end.map.getSize();
      const land = placemark.nearestLand;
      const landPoint = end.map.latLngToContainerPoint(L.latLng(land.latitude, lonNear(land.longitude, here.lng)));
      if (point.x < 0 || point.y < 0 || point.x > size.x || point.y > size.y || point.distanceTo(landPoint) < 12) {
        return;
      }
      L.polyline([here, at], { className: "way-to-place", interactive: false, dashArray: "2 5" }).addTo(end.way);
      L.circleMarker(at, { className: "nearest-place", radius: 4, interactive: false }).addTo(end.way);
      end.placeWords.textContent = place.name + ", " + km(place.distanceKm);
      end.placeWords.hidden = false;
      const width = end.placeWords.offsetWidth;
      const height = end.placeWords.offsetHeight;
      // Beside the dot, on the side away from the map's middle; moved below or above the land's words if they meet.
      let left = besideMark(point.x, width, size.x, point.x < size.x / 2);
      let top = point.y - height / 2;
      left = Math.max(4, Math.min(size.x - width - 4, left));
      top = Math.max(4, Math.min(size.y - height - 4, top));
      if (left < taken.right && left + width > taken.left && top < taken.bottom && top + height > taken.top) {
        top = top < taken.top ? taken.top - height - 2 : taken.bottom + 2;
        top = Math.max(4, Math.min(size.y - height - 4, top));
      }
      end.placeWords.style.left = left + "px";
      end.placeWords.style.top = top + "px";
    }

    /** Labels the place under the X on the bottom map with its words; none while the answer is on its way. */
    function labelTarget(words) {
      const marker = bottom.marker;
      if (!words) {
        if (marker.getTooltip()) {
          marker.unbindTooltip();
        }
        return;
      }
      if (marker.getTooltip()) {
        marker.setTooltipContent(words);
      } else {
        marker.bindTooltip(words, { permanent: true, direction: "right", offset: [14, 0], className: "place-label" });
      }
      marker.openTooltip();
    }

    function updateLabels() {
      top.markerElement.setAttribute("aria-label", "The digger at " + formatCoordinate(state.digger)
        + ". Drag it, or use the arrow keys, to dig elsewhere.");
      bottom.markerElement.setAttribute("aria-label", "The red X, where the tunnel comes out, at "
        + formatCoordinate(antipode(state.digger)) + ". Drag it, or use the arrow keys, to move it.");
    }

    function hashText() {
      return "#" + short(state.digger.lat) + "," + short(state.digger.lon) + "/" + state.zoom
        + (state.overlay ? "/overlay" : "") + (state.flipped ? "/flipped" : "");
    }

    function updatePermalink() {
      const hash = hashText();
      $("permalink").setAttribute("href", hash);
      if (location.hash !== hash) {
        history.replaceState(null, "", hash);
      }
    }

    /**
     * Leaflet draws a point beyond 85.05° on the map's edge; there a marker hangs inside the map rather than
     * across its edge, so that it stays in sight.
     */
    function updateEdgeMarkers() {
      for (const end of ends) {
        const lat = pointOf(end).lat;
        let offset = -end.anchor[1];
        if (lat > MERCATOR_EDGE) {
          offset = 2;
        } else if (lat < -MERCATOR_EDGE) {
          offset = -end.size[1] - 2;
        }
        end.markerElement.style.marginTop = offset + "px";
        end.markerElement.classList.toggle("beyond-edge", offset !== -end.anchor[1]);
      }
    }

    /** Metres a pixel of an end's polar view spans: the tiles' own scale at Web Mercator's edge, so that the
     * view keeps about the size the map had there. */
    function polarMetresPerPixel() {
      return 40075016.686 / (256 * Math.pow(2, state.zoom)) * Math.cos(MERCATOR_EDGE * Math.PI / 180);
    }

    /**
     * Beyond Web Mercator's edge each map shows Tunnel's own azimuthal map of its end at full size (asked for
     * once a move is over), with its marker at the true coordinate; away from the poles, the tiles again.
     */
    function updatePolar(settled) {
      const polar = Math.abs(state.digger.lat) > MERCATOR_EDGE;
      for (const end of ends) {
        end.polar.hidden = !polar;
        if (!polar) {
          end.polar.removeAttribute("src");
          end.polar.style.transform = "";
          continue;
        }
        const size = end.map.getSize();
        const width = Math.max(200, Math.min(2000, Math.round(size.x)));
        const height = Math.max(100, Math.min(2000, Math.round(size.y)));
        const span = Math.max(10, Math.min(20000, Math.round(polarMetresPerPixel() * Math.min(width, height) / 1000)));
        const source = "/v1/map.svg?lat=" + encodeURIComponent(short(state.digger.lat))
          + "&lon=" + encodeURIComponent(short(state.digger.lon)) + "&end=" + (end === top ? "digger" : "target")
          + "&width=" + width + "&height=" + height + "&span=" + span;
        if (settled && end.polar.getAttribute("src") !== source) {
          end.polar.setAttribute("src", source);
        }
      }
    }

    /**
     * The point a polar view shows at (dx, dy) pixels from its centre (east and south positive on the screen),
     * on the sphere, by the azimuthal equidistant map it is: what dragging the view by (−dx, −dy) brings to
     * the middle.
     */
    function polarPoint(centre, dx, dy) {
      const radians = Math.PI / 180;
      const distance = Math.hypot(dx, dy) * polarMetresPerPixel() / 6371008.8;
      if (distance === 0) {
        return centre;
      }
      const lat1 = centre.lat * radians;
      if (Math.abs(centre.lat) > 89.9999) {
        // At a pole the map's own meridian runs down from the North Pole and up from the South Pole.
        const north = centre.lat > 0;
        const lon = centre.lon + Math.atan2(dx, north ? dy : -dy) / radians;
        return { lat: (north ? 1 : -1) * (90 - distance / radians), lon: wrapLon(lon) };
      }
      const bearing = Math.atan2(dx, -dy);
      const lat2 = Math.asin(Math.sin(lat1) * Math.cos(distance)
        + Math.cos(lat1) * Math.sin(distance) * Math.cos(bearing));
      const lon2 = centre.lon * radians + Math.atan2(Math.sin(bearing) * Math.sin(distance) * Math.cos(lat1),
        Math.cos(distance) - Math.sin(lat1) * Math.sin(lat2));
      return { lat: lat2 / radians, lon: wrapLon(lon2 / radians) };
    }

    /** Dragging a polar view moves its end as dragging the tiles does; the picture follows the pointer until the
     * new one has come. */
    function dragPolar(end) {
      const view = end.polar;
      let from = null;
      for (const type of ["pointerdown", "mousedown", "touchstart", "wheel", "dblclick", "click"]) {
        L.DomEvent.on(view, type, L.DomEvent.stopPropagation);
      }
      view.addEventListener("dragstart", (event) => event.preventDefault());
      view.addEventListener("pointerdown", (event) => {
        from = { x: event.clientX, y: event.clientY };
        view.setPointerCapture(event.pointerId);
        view.classList.add("dragging");
        event.preventDefault();
      });
      view.addEventListener("pointermove", (event) => {
        if (from) {
          view.style.transform = "translate(" + (event.clientX - from.x) + "px, " + (event.clientY - from.y) + "px)";
        }
      });
      const finish = (event, cancelled) => {
        if (!from) {
          return;
        }
        const dx = event.clientX - from.x;
        const dy = event.clientY - from.y;
        from = null;
        view.classList.remove("dragging");
        if (cancelled || (dx === 0 && dy === 0)) {
          view.style.transform = "";
          return;
        }
        const moved = polarPoint(pointOf(end), -dx, -dy);
        const before = view.getAttribute("src");
        moveTo(end === top ? moved : antipode(moved), null);
        // No new picture comes when the move is too small to change it (or leaves the pole): none to wait for.
        if (view.getAttribute("src") === before || view.hidden) {
          view.style.transform = "";
        }
      };
      view.addEventListener("pointerup", (event) => finish(event, false));
      view.addEventListener("pointercancel", (event) => finish(event, true));
      view.addEventListener("load", () => {
        view.style.transform = "";
      });
    }

    function samePoint(a, b) {
      return Math.abs(a.lat - b.lat) < 1e-9 && Math.abs(a.lon - b.lon) < 1e-9;
    }

    // -- The answer from /v1/antipode --------------------------------------------------------------------------

    let fetchTimer = null;
    let inFlight = null;
    let sequence = 0;

    function scheduleFetch() {
      state.loading = true;
      state.error = null;
      if (!(state.answerFor && samePoint(state.answerFor, state.digger))) {
        for (const end of ends) {
          renderMessage(end.geo, "thinking", "Thinking…");
        }
      }
      updateReadouts();
      for (const end of ends) {
        end.geo.setAttribute("aria-busy", "true");
      }
      clearTimeout(fetchTimer);
      fetchTimer = setTimeout(fetchAnswer, FETCH_DELAY_MS);
    }

    async function fetchAnswer() {
      fetchTimer = null;
      if (inFlight) {
        inFlight.abort();
      }
      const controller = new AbortController();
      inFlight = controller;
      const mine = ++sequence;
      const point = Object.assign({}, state.digger);
      const path = "/v1/antipode?lat=" + encodeURIComponent(point.lat) + "&lon=" + encodeURIComponent(point.lon)
        + "&precision=6";
      try {
        const answer = await getJSON(path, controller.signal);
        if (mine !== sequence) {
          return;
        }
        state.answer = answer;
        state.answerFor = point;
        state.error = null;
        if (state.fitPending) {
          state.fitPending = false;
          fitToLand(answer);
        }
        renderPlacemark(top.geo, answer.from, answer, "top");
        renderPlacemark(bottom.geo, answer.to, answer, "bottom");
      } catch (error) {
        if (error.name === "AbortError" || mine !== sequence) {
          return;
        }
        state.error = "Could not say where this is: " + error.message;
        for (const end of ends) {
          renderMessage(end.geo, "error", state.error);
        }
      } finally {
        if (mine === sequence) {
          inFlight = null;
          state.loading = false;
          for (const end of ends) {
            end.geo.removeAttribute("aria-busy");
          }
          updateReadouts();
        }
      }
    }

    // Keep the local times current on the geocode views.
    setInterval(() => {
      if (state.answer && !state.loading && state.answerFor && samePoint(state.answerFor, state.digger)) {
        renderPlacemark(top.geo, state.answer.from, state.answer, "top");
        renderPlacemark(bottom.geo, state.answer.to, state.answer, "bottom");
      }
    }, 30000);

    // -- The radar: flip the top map, then the bottom one 0.2 s later ----------------------------------------

    const radar = $("radar");

    function flipDuration() {
      const value = getComputedStyle(document.documentElement).getPropertyValue("--flip").trim();
      const seconds = parseFloat(value);
      return Number.isFinite(seconds) ? (value.endsWith("ms") ? seconds : seconds * 1000) : 500;
    }

    function toggleRadar() {
      // A second press while the maps are turning would start a flip on a half-turned card: refuse it.
      if (state.flipping) {
        return;
      }
      state.flipping = true;
      state.flipped = !state.flipped;
      updatePermalink();
      radar.setAttribute("aria-pressed", String(state.flipped));
      radar.setAttribute("aria-disabled", "true");
      const flip = (end) => {
        end.card.classList.toggle("flipped", state.flipped);
        end.card.querySelector(".front").setAttribute("aria-hidden", String(state.flipped));
        end.card.querySelector(".back").setAttribute("aria-hidden", String(!state.flipped));
      };
      flip(top);
      setTimeout(() => {
        flip(bottom);
        setTimeout(() => {
          state.flipping = false;
          radar.removeAttribute("aria-disabled");
          if (!state.flipped) {
            for (const end of ends) {
              end.map.invalidateSize();
            }
          }
        }, flipDuration());
      }, FLIP_STAGGER_MS);
    }

    radar.addEventListener("click", toggleRadar);
    for (const end of ends) {
      end.card.querySelector(".back").setAttribute("aria-hidden", "true");
    }

    // -- Search ------------------------------------------------------------------------------------------------

    const searchPanel = $("search-panel");
    const searchMessage = $("search-message");
    const searchResults = $("search-results");
    const searchText = $("search-text");
    let searchController = null;

    function showSearch(message) {
      searchPanel.hidden = false;
      searchMessage.replaceChildren();
      if (message !== undefined) {
        searchMessage.textContent = message;
      }
      searchResults.replaceChildren();
    }

    async function search(text) {
      const query = text.trim();
      if (!query) {
        return;
      }
      if (searchController) {
        searchController.abort();
      }
      const controller = new AbortController();
      searchController = controller;
      showSearch("Looking for " + query + "…");
      if (/\d/.test(query)) {
        // Coordinate text ("55.95, 8.5", "55°57′N 8°30′E"): the server reads it, as it reads a place's name.
        try {
          const answer = await getJSON("/v1/antipode?q=" + encodeURIComponent(query) + "&precision=6",
            controller.signal);
          if (controller !== searchController) {
            return;
          }
          searchPanel.hidden = true;
          digAt({ lat: answer.from.latitude, lon: answer.from.longitude });
          return;
        } catch (error) {
          if (error.name === "AbortError" || controller !== searchController) {
            return;
          }
        }
      }
      try {
        const places = await getJSON("/v1/find?q=" + encodeURIComponent(query) + "&limit=8", controller.signal);
        if (controller !== searchController) {
          return;
        }
        if (!Array.isArray(places) || places.length === 0) {
          showSearch("No place is called " + query + ".");
          return;
        }
        showSearch(places.length === 1 ? "One place found:" : places.length + " places found; choose one:");
        for (const found of places) {
          const item = element("li");
          const button = element("button", "result");
          button.type = "button";
          button.appendChild(element("span", "name", found.name));
          const details = [found.region, found.countryCode].filter(Boolean);
          if (found.population) {
            details.push("population " + numbers.format(found.population));
          }
          details.push(formatCoordinate({ lat: found.latitude, lon: found.longitude }));
          button.appendChild(element("span", "detail", details.join(" · ")));
          button.setAttribute("aria-label", "Dig from " + found.name + ", " + details.join(", "));
          button.dataset.lat = String(found.latitude);
          button.dataset.lon = String(found.longitude);
          button.addEventListener("click", () => {
            digAt({ lat: found.latitude, lon: found.longitude });
            searchPanel.hidden = true;
            top.markerElement.focus({ preventScroll: true });
          });
          item.appendChild(button);
          searchResults.appendChild(item);
        }
      } catch (error) {
        if (error.name === "AbortError" || controller !== searchController) {
          return;
        }
        const suggestions = error.body && error.body.error && Array.isArray(error.body.error.suggestions)
          ? error.body.error.suggestions.filter((name) => typeof name === "string" && name) : [];
        if (suggestions.length) {
          showSearch();
          searchMessage.appendChild(document.createTextNode("No place is called " + query + ". Did you mean: "));
          suggestions.slice(0, 8).forEach((name) => {
            const button = element("button", "suggestion", name);
            button.type = "button";
            button.setAttribute("aria-label", "Search for " + name);
            button.addEventListener("click", () => {
              searchText.value = name;
              search(name);
            });
            searchMessage.appendChild(button);
          });
        } else {
          showSearch(error.message);
        }
      }
    }

    $("search-close").addEventListener("click", () => {
      searchPanel.hidden = true;
      searchText.focus();
    });
    searchText.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        searchPanel.hidden = true;
      }
    });

    $("search").addEventListener("submit", (event) => {
      event.preventDefault();
      search(searchText.value);
    });

    // -- Where am I? ---------------------------------------------------------------------------------------------

    $("locate").addEventListener("click", () => {
      if (!("geolocation" in navigator)) {
        showSearch("This browser cannot tell where you are.");
        return;
      }
      showSearch("Asking the browser where you are…");
      navigator.geolocation.getCurrentPosition(
        (position) => {
          searchPanel.hidden = true;
          digAt({ lat: position.coords.latitude, lon: position.coords.longitude });
        },
        (error) => {
          const reasons = {
            1: "The browser was not allowed to say where you are.",
            2: "The browser could not find out where you are.",
            3: "The browser took too long to say where you are."
          };
          showSearch(reasons[error.code] || "The browser could not say where you are: " + error.message);
        },
        { enableHighAccuracy: false, timeout: 15000, maximumAge: 600000 }
      );
    });

    // -- The permalink ---------------------------------------------------------------------------------------------

    function applyHash() {
      const parsed = parseHash(location.hash);
      if (!parsed) {
        return false;
      }
      if (parsed.zoom !== null) {
        state.zoom = parsed.zoom;
        moveTo(parsed, null);
      } else {
        digAt(parsed);
      }
      setOverlay(parsed.overlay);
      if (parsed.flipped !== state.flipped) {
        toggleRadar();
      }
      return true;
    }

    window.addEventListener("hashchange", () => {
      if (location.hash !== hashText()) {
        applyHash();
      }
    });

    // -- The antipodal overlay: the other side's land turned onto this one, and the pairs -------------------------

    const overlayButton = $("overlay");

    /** Shows or hides the overlay on both maps; the permalink keeps the choice. */
    function setOverlay(on) {
      state.overlay = on;
      overlayButton.setAttribute("aria-pressed", String(on));
      for (const end of ends) {
        if (on) {
          end.overlay.addTo(end.map);
          end.pairs.addTo(end.map);
        } else {
          end.overlay.remove();
          end.pairs.remove();
        }
      }
      if (on && state.pairs === null) {
        state.pairs = getJSON(PAIRS_PATH).then((pairs) => {
          const size = (pair) => Math.min(pair.first.population, pair.second.population);
          return pairs.slice().sort((a, b) => size(b) - size(a) || a.distanceKm - b.distanceKm);
        }).catch(() => []);
        state.pairs.then(() => ends.forEach(updatePairs));
      }
      ends.forEach(updatePairs);
      updatePermalink();
    }

    overlayButton.addEventListener("click", () => setOverlay(!state.overlay));

    /**
     * The pairs with a place in an end's view: a dot on each such place (its pair in a tooltip), and the most
     * populous named beside their dot, each where its words clear those already placed.
     */
    async function updatePairs(end) {
      end.pairs.clearLayers();
      if (!state.overlay || state.pairs === null) {
        return;
      }
      const pairs = await state.pairs;
      end.pairs.clearLayers();
      if (!state.overlay) {
        return;
      }
      const bounds = end.map.getBounds();
      const centre = end.map.getCenter().lng;
      // Names stay clear of the end's own marker, and of the words beside the X.
      const here = end.map.latLngToContainerPoint(end.marker.getLatLng());
      const taken = [{ left: here.x - 24, top: here.y - 44, right: here.x + (end === bottom ? 260 : 24), bottom: here.y + 30 }];
      for (const pair of pairs) {
        let named = false;
        for (const [place, other] of [[pair.first, pair.second], [pair.second, pair.first]]) {
          const at = L.latLng(place.latitude, lonNear(place.longitude, centre));
          if (!bounds.contains(at)) {
            continue;
          }
          const words = place.name + " ↔ " + other.name;
          const point = end.map.latLngToContainerPoint(at);
          const box = { left: point.x + 4, top: point.y - 10, right: point.x + 16 + 6.5 * words.length, bottom: point.y + 10 };
          const clear = !named && taken.length <= MAX_PAIR_LABELS && box.right <= end.map.getSize().x
            && taken.every((other) => box.left > other.right || box.right < other.left || box.top > other.bottom
              || box.bottom < other.top);
          const mark = L.circleMarker(at, { className: "pair-place", radius: 4 });
          mark.bindTooltip(clear ? words : words + ", " + km(pair.distanceKm) + " from each other's antipode", {
            permanent: clear, direction: "right", offset: [6, 0], className: "pair-label"
          });
          mark.addTo(end.pairs);
          if (clear) {
            taken.push(box);
            named = true;
          }
        }
      }
    }

    // -- Save picture: both ends on Tunnel's own maps, with the words under them -----------------------------------

    /** Kilometres across the shorter side of an end's map, at its centre. */
    function spanKm(end) {
      const size = end.map.getSize();
      const half = Math.min(size.x, size.y) / 2;
      const centre = end.map.latLngToContainerPoint(end.map.getCenter());
      const west = end.map.containerPointToLatLng([centre.x - half, centre.y]);
      const east = end.map.containerPointToLatLng([centre.x + half, centre.y]);
      return Math.max(10, Math.min(20000, Math.round(west.distanceTo(east) / 1000)));
    }

    /** The picture of both ends as the server draws it (SVG), or that drawn onto a canvas (PNG), as a Blob. */
    async function picture(kind) {
      const path = "/v1/map.svg?lat=" + encodeURIComponent(short(state.digger.lat))
        + "&lon=" + encodeURIComponent(short(state.digger.lon)) + "&span=" + spanKm(top) + "&width=960&height=400";
      let response;
      try {
        response = await fetch(path);
      } catch (error) {
        throw new Error("the server did not answer (" + error.message + ")");
      }
      if (!response.ok) {
        throw new Error("the server answered " + response.status);
      }
      const svg = new Blob([await response.text()], { type: "image/svg+xml" });
      if (kind === "svg") {
        return svg;
      }
      const url = URL.createObjectURL(svg);
      try {
        const image = new Image();
        image.src = url;
        await image.decode();
        const canvas = document.createElement("canvas");
        canvas.width = image.naturalWidth * 2;
        canvas.height = image.naturalHeight * 2;
        const context = canvas.getContext("2d");
        context.scale(2, 2);
        context.drawImage(image, 0, 0);
        return await new Promise((resolve, reject) => canvas.toBlob(
          (blob) => (blob ? resolve(blob) : reject(new Error("the browser could not make a PNG"))), "image/png"));
      } finally {
        URL.revokeObjectURL(url);
      }
    }

    async function savePicture(kind, button) {
      const status = $("save-status");
      button.setAttribute("aria-busy", "true");
      status.textContent = "Drawing the picture…";
      try {
        const blob = await picture(kind);
        const link = element("a");
        link.href = URL.createObjectURL(blob);
        link.download = "tunnel-" + short(state.digger.lat) + "_" + short(state.digger.lon) + "." + kind;
        document.body.appendChild(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(link.href), 60000);
        status.textContent = "Saved " + link.download + ".";
      } catch (error) {
        status.textContent = "Could not save the picture: " + error.message + ".";
      } finally {
        button.removeAttribute("aria-busy");
      }
    }

    for (const kind of ["svg", "png"]) {
      const button = $("save-" + kind);
      button.addEventListener("click", () => savePicture(kind, button));
    }

    // -- A read-only view for tests and the curious -------------------------------------------------------------

    const markerPoint = (end) => {
      const latLng = end.marker.getLatLng();
      return { lat: latLng.lat, lon: wrapLon(latLng.lng) };
    };
    window.tunnel = Object.freeze({
      digger: () => markerPoint(top),
      target: () => markerPoint(bottom),
      zoom: () => state.zoom,
      mapZooms: () => ({ top: top.map.getZoom(), bottom: bottom.map.getZoom() }),
      flipped: () => state.flipped,
      flipping: () => state.flipping,
      overlay: () => state.overlay,
      /** Where a coordinate is drawn on an end's map ("top" or "bottom"), in the window's pixels. */
      pointOn: (role, lat, lon) => {
        const end = role === "top" ? top : bottom;
        const point = end.map.latLngToContainerPoint([lat, lonNear(lon, end.map.getCenter().lng)]);
        const box = end.map.getContainer().getBoundingClientRect();
        return { x: box.left + point.x, y: box.top + point.y };
      },
      ready: () => !state.loading && !state.flipping && state.answerFor !== null
        && samePoint(state.answerFor, state.digger)
    });

    moveTo(state.digger, null);
    state.fitPending = initial.zoom === null;
    setOverlay(initial.overlay === true);
    if (initial.flipped) {
      toggleRadar();
    }
  }

  start();
})();
