// SPDX-License-Identifier: GPL-3.0-or-later
// The interactive page of a Nonholonomic Lab run (ui/export/interactive_page.h): draws the
// embedded samples with three.js as the app's 3D view draws them, plays them back, and plots
// the view's variables. Body kinds, sizes, bounds, colours and the samples' layout come with
// the data (data.scene: the scene table, core/nh/scene_table.h). Opened with #selftest it
// checks itself and writes the verdict into the element #selftest
// (tests/ui/export/interactive_page_test.cpp reads it).
(function () {
  "use strict";

  var data = JSON.parse(document.getElementById("nh-data").textContent);
  // The scene table (core/nh/scene_table.h): the body kinds, their sizes, bounds and colours,
  // the arrows', trails' and runs' colours, the page's stage and the layout of a sample.
  var table = data.scene;

  // ---- The embedded samples ------------------------------------------------------------------

  // A base64 string of little-endian 32-bit floats.
  function floats(text) {
    var bytes = atob(text), raw = new Uint8Array(bytes.length);
    for (var i = 0; i < bytes.length; ++i) raw[i] = bytes.charCodeAt(i);
    return new Float32Array(raw.buffer);
  }

  var times = floats(data.t);
  var samples = floats(data.samples);
  var count = data.count;
  var bodies = data.bodies, arrows = data.arrows, points = data.points;

  // Where sample k's record of the i-th body, arrow or point, and of the moving frame, starts,
  // for `counts` of each item: the items' records one after another in the table's order.
  var RECORD = table.record;
  function recordLayout(counts) {
    var at = {}, width = 0;
    RECORD.order.forEach(function (item) {
      at[item] = width;
      width += counts[item] * RECORD[item].width;
    });
    function offset(item) {
      return function (k, i) { return k * width + at[item] + (i || 0) * RECORD[item].width; };
    }
    return { width: width, body: offset("body"), arrow: offset("arrow"), point: offset("point"),
             frame: offset("frame") };
  }
  var layout = recordLayout({ body: bodies.length, arrow: arrows.length, point: points.length, frame: 1 });
  var bodyOffset = layout.body, arrowOffset = layout.arrow, pointOffset = layout.point;
  var frameOffset = layout.frame;

  // The last sample at or before time t.
  function sampleAt(t) {
    var lo = 0, hi = count - 1;
    if (t <= times[0]) return 0;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (times[mid] <= t) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  // ---- Colours (the scene table's; the app draws with the same) ------------------------------

  // A colour of the table: [r, g, b] in bytes.
  function rgb(c) { return new THREE.Color(c[0] / 255, c[1] / 255, c[2] / 255); }
  var ARROW_COLOURS = table.arrows;
  var TRAIL_COLOURS = table.trails.map(rgb);
  // Beside a comparison, each run's trails in its own colours.
  var RUN_TRAIL_COLOURS = table.runs.map(function (run) { return run.trails.map(rgb); });
  var COMPARISON_COLOUR = table.runs[1].onDark.map(function (v) { return v / 255; });
  var FACES = ["+x", "-x", "+y", "-y", "+z", "-z"];

  // The row of body `b`'s kind, and the colour of `role` in it.
  function kindOf(b) { return table.kinds[b.kind]; }
  function colourOf(b, role) { return rgb(kindOf(b).colours[role]); }

  function isDark() { return document.documentElement.getAttribute("data-theme") === "dark"; }

  // ---- Meshes by body kind ------------------------------------------------------------------

  // Colours every triangle of `geometry` by colourOf(centroid, normal).
  function paint(geometry, colourOf) {
    var g = geometry.index ? geometry.toNonIndexed() : geometry;
    var pos = g.attributes.position, nor = g.attributes.normal;
    var colours = new Float32Array(pos.count * 3);
    var c = new THREE.Vector3(), n = new THREE.Vector3();
    for (var v = 0; v < pos.count; v += 3) {
      c.set(0, 0, 0);
      for (var j = 0; j < 3; ++j) c.x += pos.getX(v + j) / 3, c.y += pos.getY(v + j) / 3, c.z += pos.getZ(v + j) / 3;
      n.set(nor.getX(v), nor.getY(v), nor.getZ(v));
      var colour = colourOf(c, n);
      for (j = 0; j < 3; ++j) colours.set([colour.r, colour.g, colour.b], (v + j) * 3);
    }
    g.setAttribute("color", new THREE.BufferAttribute(colours, 3));
    return g;
  }

  // The face of an axis-aligned box a normal points out of: +x, -x, +y, -y, +z, -z.
  function boxFace(n) {
    var ax = Math.abs(n.x), ay = Math.abs(n.y), az = Math.abs(n.z);
    if (ax >= ay && ax >= az) return n.x > 0 ? 0 : 1;
    if (ay >= az) return n.y > 0 ? 2 : 3;
    return n.z > 0 ? 4 : 5;
  }

  function sectorOf(a, b, sectors) {
    var angle = Math.atan2(b, a);
    if (angle < 0) angle += 2 * Math.PI;
    return Math.floor(angle / (2 * Math.PI / sectors)) % sectors;
  }

  function mix(a, b, f) { return a.clone().lerp(b, f); }

  // The size body `b` is drawn with: a component at or below zero takes another's value where
  // the kind says so (an ellipsoid's y or z take its x).
  function drawnSize(b) {
    var or = kindOf(b).orComponent;
    return b.size.map(function (v, i) { return or[i] >= 0 && !(v > 0) ? b.size[or[i]] : v; });
  }

  function sphereGeometry(b) {
    var size = drawnSize(b), g = new THREE.SphereBufferGeometry(1, 48, 32);
    g.scale(size[0], size[1], size[2]);
    var a = colourOf(b, "a"), c2 = colourOf(b, "b");
    return paint(g, function (c) { return ((c.x > 0) !== (c.y > 0)) !== (c.z > 0) ? a : c2; });
  }

  function tableGeometry(b, radius) {
    var thickness = b.size[2], modelRadius = Math.abs(b.size[0]);
    var grown = radius / Math.max(1e-12, modelRadius);
    var rings = Math.max(6, Math.min(96, Math.round(6 * grown))), sectors = 24;
    var light = colourOf(b, "light"), dark = colourOf(b, "dark"), marker = colourOf(b, "marker");
    var top = paint(new THREE.RingBufferGeometry(1e-6 * radius, radius, sectors, rings),
      function (c) {
        var s = sectorOf(c.x, c.y, sectors);
        var k = Math.floor(Math.hypot(c.x, c.y) / (radius / rings));
        return s === 0 ? marker : ((s + k) % 2 === 0 ? light : dark);
      });
    // The rim and the bottom below the top face (no face of them at z = 0, where the top is).
    var depth = Math.max(thickness, 0.01 * radius);
    var rim = new THREE.CylinderBufferGeometry(radius, radius, depth, 64, 1, true);
    rim.rotateX(Math.PI / 2);
    rim.translate(0, 0, -depth / 2);
    var bottom = new THREE.CircleBufferGeometry(radius, 64);
    bottom.rotateX(Math.PI);
    bottom.translate(0, 0, -depth);
    var rimColour = colourOf(b, "rim");
    return [top, paint(rim, function () { return rimColour; }),
            paint(bottom, function () { return rimColour; })];
  }

  function diskGeometry(b) {
    var size = b.size, g = new THREE.CylinderBufferGeometry(size[0], size[0], 2 * size[1], 64);  // axis y
    var a = colourOf(b, "a"), c2 = colourOf(b, "b");
    return paint(g, function (c) { return sectorOf(c.x, c.z, 16) % 2 === 0 ? a : c2; });
  }

  function cylinderGeometry(b) {
    var size = b.size, g = new THREE.CylinderBufferGeometry(size[0], size[0], 2 * size[1], 48);
    g.rotateX(Math.PI / 2);  // axis z
    var a = colourOf(b, "side"), stripe = colourOf(b, "stripe");
    var cap = mix(a, rgb(table.shade), table.capShade);
    return paint(g, function (c, n) {
      if (Math.abs(n.z) > 0.5) return cap;
      return sectorOf(c.x, c.y, 12) === 0 ? stripe : a;
    });
  }

  function sleighGeometry(b) {
    var L = b.size[0], W = b.size[1], Z = b.size[2];
    var shape = new THREE.Shape();
    shape.moveTo(-L, -W);
    shape.lineTo(0.55 * L, -W);
    shape.lineTo(L, 0);
    shape.lineTo(0.55 * L, W);
    shape.lineTo(-L, W);
    shape.lineTo(-L, -W);
    var hull = new THREE.ExtrudeBufferGeometry(shape, { depth: 2 * Z, bevelEnabled: false });
    hull.translate(0, 0, -Z);
    hull.computeVertexNormals();
    var top = colourOf(b, "top"), side = colourOf(b, "side");
    var stripe = new THREE.BoxBufferGeometry(1.7 * L, 0.24 * W, 0.04 * Z);
    stripe.translate(-0.1 * L, 0, 1.02 * Z);
    var stripeColour = colourOf(b, "stripe");
    return [paint(hull, function (c, n) { return Math.abs(n.z) > 0.5 ? top : side; }),
            paint(stripe, function () { return stripeColour; })];
  }

  function boxGeometry(b) {
    var size = b.size, colours = FACES.map(function (face) { return colourOf(b, face); });
    var g = new THREE.BoxBufferGeometry(2 * size[0], 2 * size[1], 2 * Math.max(size[2], 1e-6));
    return paint(g, function (c, n) { return colours[boxFace(n)]; });
  }

  function material(options) {
    var m = new THREE.MeshPhongMaterial(Object.assign({ shininess: 40, specular: rgb(table.stage.specular) }, options));
    return m;
  }

  // The meshes of body `b` (a group at the body's pose), by how its kind is drawn; `look`
  // overrides its colour and opacity (the comparison run's bodies).
  function bodyObject(b, tableRadius, look) {
    var s = b.size, geometries, opacity = 1, shininess = 40;
    switch (kindOf(b).geometry) {
      case "ellipsoid": geometries = [sphereGeometry(b)]; break;
      case "ball":
        var ball = colourOf(b, "body");
        geometries = [paint(new THREE.SphereBufferGeometry(s[0], 32, 20), function () { return ball; })];
        break;
      case "table": geometries = tableGeometry(b, tableRadius); shininess = 8; break;
      case "disk": geometries = [diskGeometry(b)]; break;
      case "sleigh": geometries = sleighGeometry(b); break;
      case "cylinder": geometries = [cylinderGeometry(b)]; break;
      case "guide":
        if (s[2] === 0) {
          var plane = colourOf(b, "plane");
          geometries = [paint(new THREE.PlaneBufferGeometry(2 * s[0], 2 * s[1]), function () { return plane; })];
          opacity = table.flatGuideOpacity;
        } else {
          geometries = [boxGeometry(b)];
          shininess = 90;
        }
        break;
      default: geometries = [boxGeometry(b)];
    }
    var group = new THREE.Group(), colour = b.colour;
    if (look) colour = look.colour, opacity = look.opacity;
    geometries.forEach(function (g) {
      var options = { shininess: shininess, transparent: opacity < 1, opacity: opacity,
                      side: opacity < 1 ? THREE.DoubleSide : THREE.FrontSide,
                      depthWrite: opacity >= 1 };
      if (colour) options.color = new THREE.Color(colour[0], colour[1], colour[2]);
      else options.vertexColors = THREE.VertexColors;
      group.add(new THREE.Mesh(g, material(options)));
    });
    return group;
  }

  // The radius of a sphere that holds body `b` however it turns, by its kind's rule: over the
  // size components the rule names, the largest magnitude or the Euclidean length (the app's
  // camera and tables use the same rule; the self-test compares with the app's value, b.bound).
  function boundingRadius(b) {
    var rule = kindOf(b).bound, largest = 0, squares = 0;
    for (var i = 0; i < 3; ++i) {
      if (!rule.of[i]) continue;
      largest = Math.max(largest, Math.abs(b.size[i]));
      squares += b.size[i] * b.size[i];
    }
    return rule.combine === "largest" ? largest : Math.sqrt(squares);
  }

  // Whether body `b` is scenery (a table, a guide): not framed, not a body on a table.
  function scenery(b) { return kindOf(b).scenery; }

  // Sets `object` to the body pose in `values` at offset `o` (hidden where it is not drawn).
  var BODY = RECORD.body;
  function placeBody(object, values, o) {
    var p = o + BODY.position, q = o + BODY.orientation;
    object.visible = isFinite(values[p] + values[p + 1] + values[p + 2] + values[q + 3]);
    if (!object.visible) return;
    object.position.set(values[p], values[p + 1], values[p + 2]);
    object.quaternion.set(values[q], values[q + 1], values[q + 2], values[q + 3]);
  }

  // A table is drawn with its model radius, doubled until every body on it over the whole run
  // stays on it (as the app grows it).
  function tableRadius(i) {
    var table = bodies[i], size = Math.abs(table.size[0]), needed = 0;
    var q = new THREE.Quaternion(), n = new THREE.Vector3(), rel = new THREE.Vector3();
    for (var k = 0; k < count; ++k) {
      var o = bodyOffset(k, i) + BODY.position, oq = bodyOffset(k, i) + BODY.orientation;
      q.set(samples[oq], samples[oq + 1], samples[oq + 2], samples[oq + 3]);
      n.set(0, 0, 1).applyQuaternion(q);
      for (var j = 0; j < bodies.length; ++j) {
        var b = bodies[j];
        if (scenery(b)) continue;
        var p = bodyOffset(k, j) + BODY.position;
        rel.set(samples[p] - samples[o], samples[p + 1] - samples[o + 1], samples[p + 2] - samples[o + 2]);
        if (!isFinite(rel.x + rel.y + rel.z)) continue;
        var normal = rel.dot(n), r = boundingRadius(b);
        if (Math.abs(normal) > 2 * r + 0.05 * size) continue;
        var inPlane = rel.clone().addScaledVector(n, -normal).length();
        needed = Math.max(needed, inPlane + r + 0.1 * size);
      }
    }
    var radius = size;
    for (var doubled = 0; radius < needed && doubled < 40; ++doubled) radius *= 2;
    return radius;
  }

  // ---- Arrows -------------------------------------------------------------------------------

  // Smallest 1-2-5 number at or above v.
  function niceCeil(v) {
    if (!(v > 0) || !isFinite(v)) return 1;
    var p = Math.pow(10, Math.floor(Math.log10(v)));
    var steps = [1, 2, 5, 10];
    for (var i = 0; i < steps.length; ++i) if (steps[i] * p >= v * (1 - 1e-12)) return steps[i] * p;
    return 10 * p;
  }

  // Each arrow's scale at each sample (the magnitude drawn 0.35 × the scene extent long; NaN
  // where it is not drawn), stepped by the app's rule for the view's arrows (ArrowScale in
  // ui/scene/scene_renderer.h): every arrow on its own scale, a lesson's fixed scales kept.
  var arrowScales = (data.arrowScales || []).map(floats);

  function arrowObject(a) {
    var c = ARROW_COLOURS[a.kind] || [1, 1, 1];
    var m = material({ color: new THREE.Color(c[0], c[1], c[2]), emissive: new THREE.Color(c[0] * 0.25, c[1] * 0.25, c[2] * 0.25) });
    var shaft = new THREE.Mesh(new THREE.CylinderBufferGeometry(1, 1, 1, 12), m);
    var head = new THREE.Mesh(new THREE.ConeBufferGeometry(1, 1, 16), m);
    var group = new THREE.Group();
    group.add(shaft);
    group.add(head);
    group.userData = { shaft: shaft, head: head };
    return group;
  }

  // Points arrow object `o` from `origin` along `v` with `length` (head and shaft in
  // proportion to the scene).
  var Y = new THREE.Vector3(0, 1, 0);
  function placeArrow(o, origin, v, length, thickness) {
    var head = Math.min(0.3 * length, 3 * thickness * 2.5), shaft = Math.max(length - head, 1e-9);
    o.position.copy(origin);
    o.quaternion.setFromUnitVectors(Y, v.clone().normalize());
    o.userData.shaft.scale.set(thickness, shaft, thickness);
    o.userData.shaft.position.set(0, shaft / 2, 0);
    o.userData.head.scale.set(2.5 * thickness, head, 2.5 * thickness);
    o.userData.head.position.set(0, shaft + head / 2, 0);
  }

  // ---- The scene ----------------------------------------------------------------------------

  var canvas = document.getElementById("scene");
  // The URL fragment: #selftest, and t=SECONDS and theme=light|dark to open at a time or in a
  // theme (e.g. page.html#t=4&theme=dark, for screenshots and links).
  var fragment = new URLSearchParams(location.hash.slice(1));
  var selftest = fragment.has("selftest");
  var renderer;
  try {
    renderer = new THREE.WebGLRenderer({ canvas: canvas, antialias: true, alpha: true,
                                          preserveDrawingBuffer: selftest });
  } catch (error) {
    document.getElementById("clock").textContent = "This browser cannot draw WebGL: " + error.message;
    renderer = null;
  }

  var scene = new THREE.Scene();
  var extent = data.extent;
  var camera = new THREE.PerspectiveCamera(30, 1, extent * 1e-2, extent * 1e3);
  camera.up.set(0, 0, 1);
  scene.add(camera);
  var stage = table.stage;
  scene.add(new THREE.AmbientLight(rgb(stage.ambient), 0.5));
  scene.add(new THREE.HemisphereLight(rgb(stage.sky), rgb(stage.ground), 0.25));
  var headlight = new THREE.DirectionalLight(rgb(stage.headlight), 0.55);
  headlight.position.set(0.3, 0.6, 1);
  camera.add(headlight);

  var bodyObjects = bodies.map(function (b, i) {
    var o = bodyObject(b, kindOf(b).geometry === "table" ? tableRadius(i) : 0);
    scene.add(o);
    return o;
  });

  var arrowThickness = 0.012 * extent;
  var arrowObjects = arrows.map(function (a) {
    var o = arrowObject(a);
    scene.add(o);
    return o;
  });

  // Trails: one line per traced point over all samples, drawn over the trail's span; points
  // given in the moving frame are drawn in a group turned with it.
  // A trail's line through the positions at offset(k) of `values` (a gap keeps the last
  // position), added to `group`.
  function trailLine(values, offset, colour, group) {
    var positions = new Float32Array(count * 3), last = [NaN, NaN, NaN];
    for (var k = 0; k < count; ++k) {
      var o = offset(k);
      for (var c = 0; c < 3; ++c) {
        if (isFinite(values[o + c])) last[c] = values[o + c];
        positions[k * 3 + c] = isFinite(last[c]) ? last[c] : 0;
      }
    }
    var g = new THREE.BufferGeometry();
    g.setAttribute("position", new THREE.BufferAttribute(positions, 3));
    var line = new THREE.Line(g, new THREE.LineBasicMaterial({ color: colour }));
    line.frustumCulled = false;
    group.add(line);
    return line;
  }

  var compared = data.comparison;
  var movingGroup = new THREE.Group();
  scene.add(movingGroup);
  function primaryTrails() {
    return points.map(function (p, i) {
      var colour = compared ? RUN_TRAIL_COLOURS[0][i % 4] : TRAIL_COLOURS[i % 4];
      return trailLine(samples, function (k) { return pointOffset(k, i) + RECORD.point.position; }, colour,
                       p.moving ? movingGroup : scene);
    });
  }
  var trailObjects = primaryTrails();

  // The comparison run: its bodies translucent orange, its trails in its colours.
  var other = null;
  if (compared) {
    other = { values: floats(compared.samples), bodies: compared.bodies, points: compared.points,
              group: new THREE.Group() };
    other.layout = recordLayout({ body: other.bodies.length, arrow: 0, point: compared.points.length, frame: 1 });
    scene.add(other.group);
    other.objects = other.bodies.map(function (b) {
      var o = bodyObject(b, 0, { colour: COMPARISON_COLOUR, opacity: table.comparisonOpacity });
      scene.add(o);
      return o;
    });
    other.trails = comparisonTrails();
  }
  function comparisonTrails() {
    return other.points.map(function (p, i) {
      return trailLine(other.values, function (k) { return other.layout.point(k, i) + RECORD.point.position; },
                       RUN_TRAIL_COLOURS[1][i % 4], p.moving ? other.group : scene);
    });
  }

  // A planned motion's start and target: its bodies where they are, translucent in their own
  // colours, as the app's view draws them.
  (data.ghosts || []).forEach(function (ghost) {
    ghost.forEach(function (b) {
      var o = bodyObject(b, 0, { colour: b.colour, opacity: table.ghostOpacity });
      o.position.set(b.pose[0], b.pose[1], b.pose[2]);
      o.quaternion.set(b.pose[3], b.pose[4], b.pose[5], b.pose[6]);
      scene.add(o);
    });
  });

  // The moving bodies (not tables or guides) at samples first..last: their bounding box.
  function movingBox(first, last) {
    var box = new THREE.Box3(), p = new THREE.Vector3();
    for (var i = 0; i < bodies.length; ++i) {
      if (scenery(bodies[i])) continue;
      for (var k = first; k <= last; k += Math.max(1, Math.floor((last - first) / 400))) {
        var o = bodyOffset(k, i) + BODY.position;
        p.set(samples[o], samples[o + 1], samples[o + 2]);
        if (isFinite(p.x + p.y + p.z)) box.expandByPoint(p);
      }
    }
    return box;
  }
  var current = 0;  // sample shown
  var wholeRun = movingBox(0, count - 1);
  // Bodies that travel far (the bicycle, a particle) are followed: a view of the whole run
  // would show them as dots.
  var following = data.follow ||
      (!wholeRun.isEmpty() && wholeRun.getSize(new THREE.Vector3()).length() > 8 * extent);

  // Where the camera looks from: a 3/4 view of everything the moving bodies reach, or, when
  // following, of where they are now.
  function homeView() {
    var box = following ? movingBox(current, current) : movingBox(0, count - 1);
    var centre = box.isEmpty() ? new THREE.Vector3() : box.getCenter(new THREE.Vector3());
    var radius = Math.max(box.isEmpty() ? 0 : box.getSize(new THREE.Vector3()).length() / 2,
                          (following ? 1.2 : 0.6) * extent);
    // Fitted in the narrower of the two angles (a tall, narrow view: the horizontal one).
    var half = (camera.fov / 2) * Math.PI / 180;
    half = Math.min(half, Math.atan(Math.tan(half) * camera.aspect));
    var distance = 1.15 * radius / Math.sin(half);
    camera.position.copy(centre).add(new THREE.Vector3(1, -2, 1).normalize().multiplyScalar(distance));
    controls.target.copy(centre);
    controls.update();
  }

  // Following: the camera keeps its offset from the bodies' centre as they move.
  function follow(k) {
    if (!following) return;
    var box = movingBox(k, k);
    if (box.isEmpty()) return;
    var shift = box.getCenter(new THREE.Vector3()).sub(controls.target);
    camera.position.add(shift);
    controls.target.add(shift);
    controls.update();
  }

  // The ground grid where no table is drawn: lines every 1-2-5 step near half the scene's
  // size, over everything the bodies reach.
  var grid = null;
  if (!bodies.some(function (b) { return kindOf(b).geometry === "table"; })) {
    var reach = wholeRun.isEmpty() ? extent : wholeRun.getSize(new THREE.Vector3()).length();
    var cell = niceCeil(extent / 2), half = Math.ceil((reach / 2 + 2 * extent) / cell);
    half = Math.min(half, 100);
    var centre = wholeRun.isEmpty() ? new THREE.Vector3() : wholeRun.getCenter(new THREE.Vector3());
    grid = new THREE.GridHelper(2 * half * cell, 2 * half, rgb(stage.grid), rgb(stage.grid));
    grid.rotateX(Math.PI / 2);
    grid.position.set(Math.round(centre.x / cell) * cell, Math.round(centre.y / cell) * cell, 0);
    grid.material.transparent = true;
    grid.material.opacity = 0.45;
    scene.add(grid);
  }

  var controls = new THREE.OrbitControls(camera, canvas);
  controls.enableDamping = false;
  homeView();

  // ---- The state shown ----------------------------------------------------------------------

  var clock = document.getElementById("clock"), legend = document.getElementById("legend");

  function formatNumber(v) {
    if (!isFinite(v)) return "–";
    return Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(2) : v.toPrecision(3);
  }

  function showBodies(k) {
    bodyObjects.forEach(function (o, i) { placeBody(o, samples, bodyOffset(k, i)); });
  }

  // The arrows at sample k, and the legend as the app's: each arrow's colour, name, magnitude
  // and scale ("→ friction 0.123 N   0.35 m ≙ 0.2 N").
  function showArrows(k) {
    var origin = new THREE.Vector3(), v = new THREE.Vector3();
    var lines = [];
    arrowObjects.forEach(function (o, i) {
      var s = arrowOffset(k, i), a = arrows[i], reference = arrowScales[i][k];
      var so = s + RECORD.arrow.origin, sv = s + RECORD.arrow.vector;
      origin.set(samples[so], samples[so + 1], samples[so + 2]);
      v.set(samples[sv], samples[sv + 1], samples[sv + 2]);
      var magnitude = v.length();
      o.visible = isFinite(magnitude + origin.x + origin.y + origin.z + reference) && reference > 0;
      if (o.visible) placeArrow(o, origin, v, 0.35 * extent * magnitude / reference, arrowThickness);
      var c = (ARROW_COLOURS[a.kind] || [1, 1, 1]).map(function (x) { return Math.round(255 * x * (isDark() ? 1 : table.legendOnLight)); });
      var scale = reference > 0 ? '<span class="scale">' + formatNumber(0.35 * extent) + " m \u2259 " +
                                  formatNumber(reference) + " " + escapeHtml(a.unit) + "</span>" : "";
      lines.push('<div><span class="swatch" style="background:rgb(' + c.join(",") + ')"></span>' +
                 '<span style="color:rgb(' + c.join(",") + ')">' + escapeHtml(a.name) + "</span> " +
                 formatNumber(magnitude) + " " + escapeHtml(a.unit) + " " + scale + "</div>");
    });
    legend.innerHTML = lines.join("");
  }

  function showTrails(k) {
    var first = data.trails ? sampleAt(times[k] - data.trailSeconds) : k;
    trailObjects.forEach(function (line) {
      line.visible = data.trails;
      line.geometry.setDrawRange(first, k - first + 1);
    });
    var f = frameOffset(k) + RECORD.frame.orientation;
    movingGroup.quaternion.set(samples[f], samples[f + 1], samples[f + 2], samples[f + 3]);
  }

  // The comparison run at sample k: hidden where it is not drawn (failed or left).
  function showComparison(k) {
    if (!other) return;
    var v = other.values, shownFrom = k, frameAt = RECORD.frame.orientation;
    other.objects.forEach(function (o, i) { placeBody(o, v, other.layout.body(k, i)); });
    var f = other.layout.frame(k) + frameAt;
    var drawn = isFinite(v[f]);
    if (drawn) other.group.quaternion.set(v[f], v[f + 1], v[f + 2], v[f + 3]);
    if (data.trails) {
      // The trail back to where the run was last not drawn (or the trail's length).
      var first = sampleAt(times[k] - data.trailSeconds);
      while (shownFrom > first && isFinite(v[other.layout.frame(shownFrom - 1) + frameAt])) --shownFrom;
    }
    other.trails.forEach(function (line) {
      line.visible = data.trails && drawn;
      line.geometry.setDrawRange(shownFrom, k - shownFrom + 1);
    });
  }

  function escapeHtml(text) {
    return String(text).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  var slider = document.getElementById("time"), timeText = document.getElementById("timeText");
  slider.max = String(count - 1);

  function show(k) {
    current = Math.max(0, Math.min(count - 1, k));
    showBodies(current);
    showArrows(current);
    showTrails(current);
    showComparison(current);
    follow(current);
    drawPlots();
    slider.value = String(current);
    var text = "t = " + times[current].toFixed(2) + " s";
    clock.textContent = compared && compared.legend ? text + "\n" + compared.legend : text;
    timeText.textContent = text + " / " + times[count - 1].toFixed(2) + " s";
    dirty = true;
  }

  // ---- Plots --------------------------------------------------------------------------------

  // Every plot carries the comparison run's curve beside the primary run's (each in its run's
  // colour, as the app's plots: data.scene.runs) and, beside a comparison, a legend naming both.
  var plotsBox = document.getElementById("plots");
  var plots = [], runNames = data.plots.runs, marks = [];
  function comparisonOf(column) { return column.comparison ? floats(column.comparison) : null; }
  var path = data.plots.path;
  if (path) plots.push({ path: true, equal: path.equal, x: floats(path.x.values), y: floats(path.y.values),
                         otherX: comparisonOf(path.x), otherY: comparisonOf(path.y),
                         xLabel: path.x.label, yLabel: path.y.label, xName: path.x.name, yName: path.y.name });
  data.plots.series.forEach(function (s) {
    plots.push({ path: false, x: times, y: floats(s.values), otherX: s.comparison ? times : null,
                 otherY: comparisonOf(s), xLabel: "t [s]", yLabel: s.label, xName: "t", yName: s.name });
  });
  // Each plot's ranges over what it draws.
  function plotRanges(p) {
    var others = p.otherY ? [p.otherY] : [];
    p.xRange = p.path ? range([p.x].concat(p.otherX ? [p.otherX] : []))
                      : [times[0], times[count - 1] > times[0] ? times[count - 1] : times[0] + 1];
    p.yRange = range([p.y].concat(others));
  }
  plots.forEach(function (p) {
    p.canvas = document.createElement("canvas");
    p.canvas.setAttribute("aria-label", p.yLabel + " against " + p.xLabel);
    plotsBox.appendChild(p.canvas);
    plotRanges(p);
  });

  // The padded range of the finite values of the arrays in `lists`.
  function range(lists) {
    var lo = Infinity, hi = -Infinity;
    lists.forEach(function (values) {
      for (var i = 0; i < Math.min(values.length, count); ++i) if (isFinite(values[i])) lo = Math.min(lo, values[i]), hi = Math.max(hi, values[i]);
    });
    if (!(hi >= lo)) return [0, 1];
    var pad = hi > lo ? 0.05 * (hi - lo) : Math.max(1e-9, 0.05 * Math.abs(lo) || 0.5);
    return [lo - pad, hi + pad];
  }

  // The ranges widened so that x and y have one scale in a frame of w × h pixels.
  function equalRanges(xr, yr, w, h) {
    var sx = (xr[1] - xr[0]) / w, sy = (yr[1] - yr[0]) / h, c, half;
    if (sx > sy) {
      c = (yr[0] + yr[1]) / 2, half = sx * h / 2;
      return [xr, [c - half, c + half]];
    }
    c = (xr[0] + xr[1]) / 2, half = sy * w / 2;
    return [[c - half, c + half], yr];
  }

  // A run's curve colour on the current theme (the scene table's run colours).
  function runColour(run) {
    var c = table.runs[run][isDark() ? "onDark" : "onLight"];
    return "rgb(" + c.join(",") + ")";
  }

  function drawPlot(p) {
    var ratio = window.devicePixelRatio || 1, c = p.canvas;
    var w = Math.max(1, Math.round(c.clientWidth * ratio)), h = Math.max(1, Math.round(c.clientHeight * ratio));
    if (c.width !== w || c.height !== h) c.width = w, c.height = h;
    var g = c.getContext("2d"), style = getComputedStyle(document.documentElement);
    var text = style.getPropertyValue("--text"), muted = style.getPropertyValue("--muted");
    var border = style.getPropertyValue("--border");
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    var W = w / ratio, H = h / ratio, left = 56, right = 10, top = 18, bottom = 26;
    var xRange = p.xRange, yRange = p.yRange;
    var frameW = Math.max(1, W - left - right), frameH = Math.max(1, H - top - bottom);
    if (p.equal) {
      var fitted = equalRanges(xRange, yRange, frameW, frameH);
      xRange = fitted[0], yRange = fitted[1];
    }
    p.shown = { x: xRange, y: yRange, width: frameW, height: frameH };
    g.clearRect(0, 0, W, H);
    g.font = "11px system-ui, sans-serif";
    g.strokeStyle = border;
    g.strokeRect(left, top, W - left - right, H - top - bottom);
    var sx = function (x) { return left + (x - xRange[0]) / (xRange[1] - xRange[0]) * (W - left - right); };
    var sy = function (y) { return H - bottom - (y - yRange[0]) / (yRange[1] - yRange[0]) * (H - top - bottom); };
    g.fillStyle = muted;
    g.textAlign = "right";
    g.fillText(formatNumber(yRange[1]), left - 4, top + 8);
    g.fillText(formatNumber(yRange[0]), left - 4, H - bottom);
    g.textAlign = "left";
    g.fillText(formatNumber(xRange[0]), left, H - bottom + 14);
    g.textAlign = "right";
    g.fillText(formatNumber(xRange[1]), W - right, H - bottom + 14);
    g.fillStyle = text;
    g.textAlign = "left";
    g.fillText(p.yLabel + (p.path ? " against " + p.xLabel : ""), left, top - 5);
    if (!p.path) {
      g.textAlign = "center";
      g.fillText(p.xLabel, (left + W - right) / 2, H - bottom + 14);
    }
    // Beside a comparison, the runs' names in their colours at the top right.
    if (runNames) {
      var at = W - right;
      g.textAlign = "right";
      for (var r = 1; r >= 0; --r) {
        g.fillStyle = runColour(r);
        g.fillText(runNames[r], at, top - 5);
        at -= g.measureText(runNames[r]).width + 8;
        g.fillRect(at - 14, top - 9, 12, 2.5);
        at -= 20;
      }
    }
    function curve(xs, ys, from, to, colour, widthPx) {
      g.strokeStyle = colour;
      g.lineWidth = widthPx;
      g.beginPath();
      var pen = false;
      for (var i = from; i <= to; ++i) {
        if (!isFinite(xs[i] + ys[i])) { pen = false; continue; }
        if (pen) g.lineTo(sx(xs[i]), sy(ys[i])); else g.moveTo(sx(xs[i]), sy(ys[i]));
        pen = true;
      }
      g.stroke();
    }
    // The comparison's curve first, the primary run's over it; each faint over the whole run
    // and full up to the moment shown, with a dot there.
    // A live page's edits: a dashed line at each edit's time in the time series.
    if (!p.path && marks.length) {
      g.save();
      g.strokeStyle = muted;
      g.setLineDash([3, 3]);
      marks.forEach(function (t) {
        if (t < xRange[0] || t > xRange[1]) return;
        g.beginPath();
        g.moveTo(sx(t), top);
        g.lineTo(sx(t), H - bottom);
        g.stroke();
      });
      g.restore();
    }
    var runs = [{ x: p.x, y: p.y, colour: runColour(0) }];
    if (p.otherY) runs.unshift({ x: p.otherX, y: p.otherY, colour: runColour(1) });
    g.save();
    g.beginPath();
    g.rect(left, top, W - left - right, H - top - bottom);
    g.clip();
    runs.forEach(function (run) {
      g.save();
      g.globalAlpha = 0.45;
      curve(run.x, run.y, 0, count - 1, run.colour, 1);
      g.restore();
      curve(run.x, run.y, 0, current, run.colour, 1.8);
      if (isFinite(run.x[current] + run.y[current])) {
        g.fillStyle = run.colour;
        g.beginPath();
        g.arc(sx(run.x[current]), sy(run.y[current]), 3.5, 0, 2 * Math.PI);
        g.fill();
      }
    });
    g.restore();
  }

  function drawPlots() { plots.forEach(drawPlot); }

  // ---- Playback -----------------------------------------------------------------------------

  var playing = false, simulated = times[0], dirty = true;
  var playButton = document.getElementById("play"), speedBox = document.getElementById("speed");
  var speeds = [0.1, 0.25, 0.5, 1, 2, 4, 8];
  if (speeds.indexOf(data.speed) < 0) speeds.push(data.speed), speeds.sort(function (a, b) { return a - b; });
  speeds.forEach(function (s) {
    var option = document.createElement("option");
    option.value = String(s);
    option.textContent = s + "×";
    option.selected = s === data.speed;
    speedBox.appendChild(option);
  });

  // A live page's engine (live.js): it runs the motion on as the playback reaches its end.
  var live = null;

  function setPlaying(on) {
    playing = on;
    if (on && !live && current >= count - 1) simulated = times[0], show(0);
    playButton.textContent = on ? "Pause" : "Play";
  }

  // Moves the playback on by `seconds` of wall-clock time (a live run computed as far, in
  // slices that keep the page responsive).
  function advance(seconds) {
    if (!playing) return;
    var wanted = simulated + seconds * Number(speedBox.value);
    if (live) wanted = live.reach(wanted);
    simulated = Math.min(times[count - 1], wanted);
    show(sampleAt(simulated));
    if (simulated >= times[count - 1] && !(live && live.running())) setPlaying(false);
  }

  playButton.addEventListener("click", function () { setPlaying(!playing); });
  slider.addEventListener("input", function () {
    var k = Number(slider.value);
    simulated = times[k];
    show(k);
  });

  // A run replacing the one shown (a live page's): its times, samples (the same items and
  // layout), arrow scales and plotted columns by name, and its comparison run's scene samples
  // and columns at the same samples (run.comparison; without it the recorded comparison is
  // dropped, as it no longer belongs to the run shown); shown at the sample at or before `t`.
  function replaceRun(run, t) {
    times = run.times;
    samples = run.samples;
    count = run.count;
    arrowScales = run.arrowScales;
    marks = run.marks || [];
    var rc = run.comparison;
    if (other) {
      other.trails.forEach(function (line) { line.parent.remove(line); line.geometry.dispose(); });
      other.trails = [];
      if (rc) {
        other.values = rc.samples;
        other.trails = comparisonTrails();
      } else {
        other.objects.forEach(function (o) { o.visible = false; });
        other = null;
        compared = null;
      }
    }
    trailObjects.forEach(function (line) { line.parent.remove(line); line.geometry.dispose(); });
    trailObjects = primaryTrails();
    plots.forEach(function (p) {
      p.x = run.columns[p.xName] || p.x;
      p.y = run.columns[p.yName] || p.y;
      p.otherX = other && rc ? (p.path ? rc.columns[p.xName] : p.x) : null;
      p.otherY = other && rc ? rc.columns[p.yName] : null;
      if (!p.otherX || !p.otherY) p.otherX = p.otherY = null;
      plotRanges(p);
    });
    slider.max = String(count - 1);
    simulated = Math.max(times[0], Math.min(t, times[count - 1]));
    show(sampleAt(simulated));
  }

  window.nhPage = {
    data: data,
    replaceRun: replaceRun,
    attach: function (engine) { live = engine; homeView(); dirty = true; },
    time: function () { return simulated; },
    isPlaying: function () { return playing; },
    setPlaying: setPlaying,
    show: function () { show(current); }
  };
  document.addEventListener("keydown", function (e) {
    if (e.key === " " && e.target.tagName !== "SELECT" && e.target.tagName !== "INPUT") {
      e.preventDefault();
      setPlaying(!playing);
    }
  });
  var themeButton = document.getElementById("theme");
  function setTheme(dark) {
    document.documentElement.setAttribute("data-theme", dark ? "dark" : "light");
    themeButton.textContent = dark ? "Light" : "Dark";
    show(current);
  }
  themeButton.addEventListener("click", function () { setTheme(!isDark()); });
  document.getElementById("resetView").addEventListener("click", function () { homeView(); dirty = true; });
  var followBox = document.getElementById("follow");
  followBox.checked = following;
  followBox.addEventListener("change", function () {
    following = followBox.checked;
    homeView();
    dirty = true;
  });
  controls.addEventListener("change", function () { dirty = true; });

  var note = document.getElementById("note");
  if (data.note) note.textContent = data.note, note.hidden = false;

  function resize() {
    if (!renderer) return;
    var w = canvas.clientWidth, h = canvas.clientHeight;
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    renderer.setSize(w, h, false);
    camera.aspect = w / Math.max(1, h);
    camera.updateProjectionMatrix();
    drawPlots();
    dirty = true;
  }
  window.addEventListener("resize", resize);

  function render() {
    if (renderer) renderer.render(scene, camera);
    dirty = false;
  }

  var lastFrame = null;
  function frame(now) {
    if (lastFrame !== null) advance((now - lastFrame) / 1000);
    lastFrame = now;
    if (dirty) render();
    requestAnimationFrame(frame);
  }

  setTheme(fragment.has("theme") ? fragment.get("theme") === "dark" : data.dark);
  resize();
  homeView();  // again, now that the view's shape is known
  show(fragment.has("t") ? sampleAt(Number(fragment.get("t"))) : 0);
  simulated = times[current];
  render();

  // ---- Self-test (#selftest) ----------------------------------------------------------------

  // The canvas's pixels as rendered now.
  function pixels() {
    render();
    var gl = renderer.getContext();
    var out = new Uint8Array(gl.drawingBufferWidth * gl.drawingBufferHeight * 4);
    gl.readPixels(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight, gl.RGBA, gl.UNSIGNED_BYTE, out);
    return out;
  }

  function painted(px) {
    var n = 0;
    for (var i = 3; i < px.length; i += 4) if (px[i] > 0) ++n;
    return n / (px.length / 4);
  }

  function differing(a, b) {
    var n = 0;
    for (var i = 0; i < a.length; ++i) if (a[i] !== b[i]) ++n;
    return n;
  }

  function runSelfTest() {
    var lines = [], ok = true;
    function check(name, passed, detail) {
      lines.push((passed ? "ok   " : "FAIL ") + name + (detail ? " (" + detail + ")" : ""));
      ok = ok && passed;
    }
    if (!renderer) {
      check("webgl", false, "no WebGL context");
    } else {
      show(0);
      var start = pixels(), share = painted(start);
      check("canvas not blank", share > 0.002, (100 * share).toFixed(2) + "% of pixels drawn");
      playButton.click();
      check("play starts", playing && playButton.textContent === "Pause");
      advance(Math.min(1, 0.25 * (times[count - 1] - times[0])) / Number(speedBox.value));
      var played = pixels();
      check("play changes the canvas", differing(start, played) > 0, "sample " + current);
      playButton.click();
      slider.value = String(count - 1);
      slider.dispatchEvent(new Event("input"));
      var moved = pixels();
      check("slider changes the canvas", current === count - 1 && differing(played, moved) > 0);
    }
    // Each body's bounding radius by the page's rule is the app's (b.bound, the core's value):
    // the page grows its tables and the app frames its bodies by one rule.
    bodies.concat(other ? other.bodies : []).forEach(function (b) {
      var mine = boundingRadius(b);
      check("bound of " + b.kind + " " + b.name + " as the app's",
            Math.abs(mine - b.bound) <= 1e-12 * Math.max(1, Math.abs(b.bound)), mine + " against " + b.bound);
    });
    // A path of two lengths is drawn with one scale on both axes (a circle stays round).
    plots.forEach(function (p) {
      if (!p.equal) return;
      var sx = (p.shown.x[1] - p.shown.x[0]) / p.shown.width, sy = (p.shown.y[1] - p.shown.y[0]) / p.shown.height;
      check("path plot " + p.yLabel + " against " + p.xLabel + " to scale",
            Math.abs(sx - sy) <= 1e-9 * Math.max(sx, sy), sx + " against " + sy + " per pixel");
    });
    var requests = performance.getEntriesByType("resource").length;
    check("no network request", window.nhBlocked.length === 0 && requests === 0,
          window.nhBlocked.length + " blocked, " + requests + " loaded");
    var out = document.getElementById("selftest");
    out.textContent = "selftest: " + (ok ? "PASS" : "FAIL") + "\n" + lines.join("\n");
    out.hidden = false;
  }

  if (selftest) runSelfTest();
  requestAnimationFrame(frame);
})();
