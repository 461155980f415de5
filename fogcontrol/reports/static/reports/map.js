/* The program map (reports/map.html): Leaflet, from our own static files, draws the features of the
   GeoJSON the page names (our own origin, the page's filters). Tiles only when the Town set a tile
   server (data-tile-url); otherwise the points sit on a plain background and nothing is fetched from
   elsewhere. Without script the server-drawn SVG map (#map-fallback) stays. No inline style: each
   marker's colour comes from its class (reports/map.css). */
(function () {
  "use strict";

  var RADIUS = { establishment: 8, device: 5, spill: 6 };

  function markerClass(props) {
    var status = props.layer === "establishment" ? "permit-" + props.permit_status
      : props.layer === "device" ? "service-" + props.service_status
      : "spill-" + props.status;
    return "fog-marker fog-marker--" + props.layer + " fog-marker--" + status;
  }

  function line(parent, text) {
    var el = document.createElement("span");
    el.textContent = text;
    parent.appendChild(el);
    parent.appendChild(document.createElement("br"));
  }

  function popup(props) {
    var box = document.createElement("div");
    var link = document.createElement("a");
    link.href = props.url;
    link.className = "fog-popup-title";
    link.textContent = props.name;
    box.appendChild(link);
    if (props.layer === "establishment") {
      line(box, props.address);
      line(box, "Permit: " + props.permit_status_label + (props.permit_number ? " (" + props.permit_number + ")" : ""));
      line(box, "Worst device: " + props.service_status_label);
    } else if (props.layer === "device") {
      line(box, "Service: " + props.service_status_label + (props.next_due ? ", next due " + props.next_due : ""));
      if (props.establishment_name) line(box, "At " + props.establishment_name);
    } else {
      line(box, props.cause_label + (props.started_at ? ", " + props.started_at.slice(0, 10) : ""));
      if (props.category) line(box, props.category_label);
    }
    return box;
  }

  function start() {
    var element = document.getElementById("leaflet-map");
    var status = document.getElementById("leaflet-status");
    if (!element || !window.L) return;
    element.hidden = false;
    var map = L.map(element, { attributionControl: true, zoomSnap: 0.5 });
    map.attributionControl.setPrefix(false);
    if (element.dataset.tileUrl) {
      L.tileLayer(element.dataset.tileUrl, { attribution: element.dataset.tileAttribution || "", maxZoom: 19 }).addTo(map);
    }
    fetch(element.dataset.geojson, { credentials: "same-origin", headers: { Accept: "application/geo+json" } })
      .then(function (response) {
        if (!response.ok) throw new Error("The map's data could not be loaded (" + response.status + ").");
        return response.json();
      })
      .then(function (data) {
        var placed = 0;
        var unplaced = 0;
        var order = { establishment: 0, device: 1, spill: 2 };
        var features = data.features.slice().sort(function (a, b) {
          return order[a.properties.layer] - order[b.properties.layer];
        });
        var layer = L.geoJSON(null, {
          filter: function (feature) {
            if (feature.geometry) { placed += 1; return true; }
            unplaced += 1;
            return false;
          },
          pointToLayer: function (feature, latlng) {
            return L.circleMarker(latlng, {
              radius: RADIUS[feature.properties.layer] || 6,
              className: markerClass(feature.properties),
              fill: true,
            });
          },
          onEachFeature: function (feature, marker) {
            marker.bindPopup(popup(feature.properties));
            marker.bindTooltip(feature.properties.name);
          },
        }).addTo(map);
        layer.addData(features);
        if (placed) {
          map.fitBounds(layer.getBounds(), { padding: [24, 24], maxZoom: 17 });
        } else {
          map.setView([0, 0], 1);
        }
        element.dataset.markers = String(placed);
        var fallback = document.getElementById("map-fallback");
        if (fallback) fallback.hidden = true;
        if (status) {
          status.textContent = placed + " point" + (placed === 1 ? "" : "s") + " on the map" +
            (unplaced ? "; " + unplaced + " without usable coordinates (listed below, not drawn)." : ".");
        }
      })
      .catch(function (error) {
        element.hidden = true;
        if (status) status.textContent = error.message + " The map drawn by the server is shown instead.";
      });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
